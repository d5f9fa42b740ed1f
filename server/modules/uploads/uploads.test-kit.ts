import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { fileFolders } from '@/server/modules/folders/folders.table';
import type { TestContext } from '@/server/test/harness';
import { formatCrc32 } from '@/server/storage/crc32';

/** Test helpers of the upload tests: tiny media, multipart requests, folders, what storage holds. */

/** A PNG head image-size reads (signature + IHDR), padded to `size` bytes. */
export function png(width: number, height: number, size = 64): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const chunk = Buffer.concat([Buffer.from([0, 0, 0, 13]), Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
  const head = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk]);

  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 7)]);
}

/** `n` bytes of a repeating pattern (`seed` shifts it, so parts differ). */
export const bytes = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256));

export const crcOf = (data: Buffer) => formatCrc32(zlib.crc32(data));

export type Part = { field: 'files' | 'previews' | string; name: string; data: Buffer; type?: string };

export function formOf(parts: Part[]): FormData {
  const form = new FormData();
  for (const p of parts) form.append(p.field, new File([new Uint8Array(p.data)], p.name, { type: p.type ?? 'application/octet-stream' }));

  return form;
}

export async function send(
  t: TestContext,
  method: string,
  url: string,
  init: { token?: string; body?: BodyInit | null; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await t.app.request(url, { method, headers, body: init.body ?? undefined, duplex: 'half' } as RequestInit);
  const buffer = Buffer.from(await res.arrayBuffer());
  let body: any = buffer;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(buffer.toString('utf8'));
    } catch {
      // a downloaded .json file that is not JSON: keep the bytes
    }
  }

  return { status: res.status, headers: res.headers, body, raw: buffer };
}

export function uploadRequest(t: TestContext, token: string, parts: Part[], query = '') {
  return send(t, 'POST', `/api/file${query ? `?${query}` : ''}`, { token, body: formOf(parts) });
}

async function rootFolderId(t: TestContext, customerId: number): Promise<string> {
  const [root] = await t.db
    .select({ id: fileFolders.id })
    .from(fileFolders)
    .where(and(eq(fileFolders.customerId, customerId), isNull(fileFolders.parentId), eq(fileFolders.fileFolderType, 1)));

  return root!.id;
}

export async function createFolder(t: TestContext, customerId: number, name = `folder-${uuidv7().slice(-6)}`): Promise<string> {
  const root = await rootFolderId(t, customerId);
  const id = uuidv7();
  await t.db.insert(fileFolders).values({ id, customerId, parentId: root, name, path: [root, id] });

  return id;
}

/** Every blob key under the local store (without its temporary and multipart areas). */
export async function storedKeys(t: TestContext): Promise<string[]> {
  const root = path.join(t.dataDir, 'storage');
  const out: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  await walk(root);

  return out.filter((k) => !k.startsWith('.tmp/') && !k.startsWith('.multipart/')).sort();
}

export async function multipartDirs(t: TestContext): Promise<string[]> {
  return fs.readdir(path.join(t.dataDir, 'storage', '.multipart')).catch(() => []);
}

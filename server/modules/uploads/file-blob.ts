import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { insertCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import type { BlobStore } from '@/server/storage/blob-store';
import { fileBlobKey } from '@/server/storage/keys';
import { namedFileType } from './content-types';
import { detectDimensions } from './media-dimensions';
import { storageUsage } from './uploads.queries';
import { UPLOAD_GRACE_MS } from './uploads.rules';

/*
 * The blob half of a file that does not arrive as an upload (a FILE_FROM_URL datasource's download): the same key,
 * crash-safety entry, type and dimension rules as the simple upload, for a body the caller streams in. The row half
 * is `createFileFromBlob`, in the caller's transaction.
 */

type BlobDeps = { db: Executor; storage: BlobStore; log: Logger };

/** A blob stored under a new file id: its key's cleanup entry stays until a file row claims it (or it is discarded). */
export type ReceivedFileBlob = { id: string; key: string; size: number; crc32: string };

/** How many leading bytes decide a type (the signatures of content-types.ts). */
const HEAD_BYTES = 64;

/**
 * Streams `body` to a new file blob of `customerId`, refusing more than `maxBytes` (the store's 413, unless the body
 * failed first). The cleanup entry is committed before the first byte; a failure removes the blob at once.
 */
export async function receiveFileBlob(
  deps: BlobDeps,
  input: { customerId: number; body: Readable; maxBytes: number; reason: string },
): Promise<ReceivedFileBlob> {
  const id = uuidv7();
  const key = fileBlobKey(input.customerId, id);
  await insertCleanupEntries(deps.db, [key], new Date(Date.now() + UPLOAD_GRACE_MS), input.reason);
  try {
    const stored = await deps.storage.put(key, input.body, { maxBytes: input.maxBytes });

    return { id, key, size: stored.size, crc32: stored.crc32 };
  } catch (error) {
    input.body.destroy();
    await discardBlobs(deps, [key]);
    throw error;
  }
}

/** Removes a received blob that no file row will claim (and its cleanup entry). */
export async function discardFileBlob(deps: BlobDeps, blob: Pick<ReceivedFileBlob, 'key'>): Promise<void> {
  await discardBlobs(deps, [blob.key]);
}

/**
 * The name, type and dimensions a received blob is stored under, by the upload's rules (`namedFileType`); undefined
 * when it is not a type files may have.
 */
export async function storedFileType(
  storage: BlobStore,
  blob: ReceivedFileBlob,
  input: { name: string; declaredType?: string },
): Promise<{ name: string; contentType: string; width?: number; height?: number } | undefined> {
  const named = namedFileType({ ...input, head: await readHead(storage, blob) });
  if (!named) return undefined;
  const dimensions = await detectDimensions(storage, blob.key, { ...named, size: blob.size });

  return { ...named, ...dimensions };
}

/**
 * The bytes a new file of `customerId` may have: its storage limit less its files and open upload sessions (the
 * number every upload checks); undefined when the customer has no limit.
 */
export async function freeStorage(db: Executor, customerId: number): Promise<number | undefined> {
  const { used, limit } = await storageUsage(db, customerId);

  return Number.isFinite(limit) ? Math.max(0, limit - used) : undefined;
}

async function readHead(storage: BlobStore, blob: ReceivedFileBlob): Promise<Buffer> {
  if (blob.size === 0) return Buffer.alloc(0);
  const stream = await storage.read(blob.key, { start: 0, end: Math.min(blob.size, HEAD_BYTES) - 1 });
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);

  return Buffer.concat(chunks);
}

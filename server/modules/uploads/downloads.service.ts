import type { Readable } from 'node:stream';
import type { Config } from '@/server/config';
import { resolveTenantScope } from '@/server/auth/tenant-scope';
import { customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { AppError, NotFoundError, UnauthorizedError } from '@/server/errors';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { files } from '@/server/modules/files/files.table';
import { teamAccessCondition } from '@/server/modules/teams';
import type { DevicePreviewRow } from '@/server/modules/devices';
import type { BlobStat, BlobStore } from '@/server/storage/blob-store';
import { IMAGE_SIGNATURE_BYTES, sniffImageType } from '@/server/storage/image-types';
import { fileBlobKey, thumbnailBlobKey } from '@/server/storage/keys';
import { parseRange } from '@/server/http/byte-range';
import { servedContentType } from './content-types';
import { signedUrl } from './signed-urls';
import { findDownloadableFile, findDownloadableFileForDevice, type DownloadableFile } from './uploads.queries';

/**
 * File and thumbnail downloads (DECISIONS §7): `Range`, `ETag`/`If-None-Match`, immutable caching.
 * Callers are a signed-in VIEWER of the tenant (team access applies) or the holder of a signed URL.
 */

export type DownloadTarget = { file: DownloadableFile; thumbnail: boolean };
export type DownloadRequest = { method: string; range?: string; ifNoneMatch?: string };
/**
 * What a download sends, for the HTTP layer to answer (status codes and headers are written there):
 * the file unchanged since the client's copy, a range outside it, or its bytes (all of them or one range;
 * no body for HEAD).
 */
export type Download =
  | { kind: 'notModified'; etag: string }
  | { kind: 'rangeNotSatisfiable'; etag: string; size: number }
  | {
      kind: 'content';
      etag: string;
      size: number;
      contentType: string;
      fileName: string;
      range?: { start: number; end: number };
      body?: Readable;
    };

const downloadPath = (customerId: number, fileId: string, thumbnail = false) =>
  `/api/storage/customer/${customerId}/files/${fileId}${thumbnail ? '.tmb' : ''}`;

const FILE_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.tmb)?$/i;
const SIGNED_URL_DEFAULT_SECONDS = 3600;

function parseTarget(customerIdRaw: string, fileName: string): { customerId: number; fileId: string; thumbnail: boolean } | undefined {
  const match = FILE_NAME.exec(fileName);
  if (!match || !/^\d{1,18}$/.test(customerIdRaw)) return undefined;

  return { customerId: Number(customerIdRaw), fileId: match[1]!.toLowerCase(), thumbnail: match[2] !== undefined };
}

/** The file for a signed-in caller: another tenant's, an invisible or unknown one → 404. */
export async function findTargetForCaller(
  ctx: Pick<ServiceContext, 'db'> & { actor: Actor },
  customerIdRaw: string,
  fileName: string,
): Promise<DownloadTarget> {
  const target = parseTarget(customerIdRaw, fileName);
  if (!target) throw new NotFoundError('file', fileName);
  try {
    await resolveTenantScope(ctx.db, ctx.actor, target.customerId);
  } catch {
    throw new NotFoundError('file', target.fileId);
  }
  const file = await findDownloadableFile(
    ctx.db,
    customerScope(target.customerId),
    target.fileId,
    teamAccessCondition(ctx, 'file', files.id),
  );
  if (!file) throw new NotFoundError('file', target.fileId);

  return { file, thumbnail: target.thumbnail };
}

/**
 * The file for a signed URL (the token already proved the exact path). A URL signed for a device (the
 * manifest's) is one of the device's credentials: once the device is deleted it is refused, and while its
 * customer is restricted, with 401 as every call of the device (spec 4 §1); checked in the file's own
 * statement, so every range request of a video sees it at once, on every instance, at no extra round trip.
 */
export async function findTargetForToken(
  db: Executor,
  input: { customerIdRaw: string; fileName: string; deviceId?: string },
): Promise<DownloadTarget> {
  const target = parseTarget(input.customerIdRaw, input.fileName);
  if (!target) throw new NotFoundError('file', input.fileName);
  let file: DownloadableFile | undefined;
  if (input.deviceId === undefined) {
    file = await findDownloadableFile(db, customerScope(target.customerId), target.fileId);
  } else {
    const access = await findDownloadableFileForDevice(db, {
      customerId: target.customerId,
      fileId: target.fileId,
      deviceId: input.deviceId,
    });
    if (!access) throw new UnauthorizedError('The signed URL belongs to a device that no longer exists', 'auth.error.invalidToken');
    if (access.customerRestricted) throw new UnauthorizedError('The customer account is restricted', 'auth.error.customerRestricted');
    file = access.file;
  }
  if (!file) throw new NotFoundError('file', target.fileId);

  return { file, thumbnail: target.thumbnail };
}

/** A blob as a download serves it: where it is, its ETag (from its size and time), its type and name, the 404 when it is gone. */
type Servable = {
  key: string;
  etag: (stat: BlobStat) => string;
  contentType: (size: number) => string | Promise<string>;
  fileName: string;
  missing: () => Error;
};

/** `Range`, `If-None-Match` and HEAD over one blob (files, thumbnails, device screenshots). */
async function serveBlob(storage: BlobStore, blob: Servable, request: DownloadRequest): Promise<Download> {
  const stat = await storage.stat(blob.key);
  if (!stat) throw blob.missing();
  const size = stat.size;
  const etag = blob.etag(stat);
  if (request.ifNoneMatch && matchesEtag(request.ifNoneMatch, etag)) return { kind: 'notModified', etag };
  const range = request.range ? parseRange(request.range, size) : undefined;
  if (range === 'unsatisfiable') return { kind: 'rangeNotSatisfiable', etag, size };
  const content = { kind: 'content' as const, etag, size, contentType: await blob.contentType(size), fileName: blob.fileName, range };
  const isHead = request.method.toUpperCase() === 'HEAD';
  if (isHead || (size === 0 && !range)) return content;

  return { ...content, body: await readOrGone(storage, blob.key, range) };
}

export async function download(storage: BlobStore, target: DownloadTarget, request: DownloadRequest): Promise<Download> {
  const { file, thumbnail } = target;
  const key = thumbnail ? thumbnailBlobKey(file.customerId, file.id) : fileBlobKey(file.customerId, file.id);

  return serveBlob(
    storage,
    {
      key,
      etag: (stat) =>
        thumbnail
          ? `"t${file.lastPreviewUploadTime?.getTime() ?? stat.lastModified.getTime()}-${stat.size}"`
          : `"${file.crcCheckSum}-${stat.size}"`,
      contentType: (size) => (thumbnail ? sniffThumbnailType(storage, key, size) : servedContentType(file.name, file.contentType)),
      fileName: thumbnail ? `${file.name}.tmb` : file.name,
      missing: () => new NotFoundError(thumbnail ? 'thumbnail' : 'file', file.id),
    },
    request,
  );
}

/** A device's screenshot (its `device_preview` row): the type checked at upload, an ETag per screenshot. */
export function downloadDevicePreview(storage: BlobStore, preview: DevicePreviewRow, request: DownloadRequest): Promise<Download> {
  return serveBlob(
    storage,
    {
      key: preview.storageKey,
      etag: (stat) => `"p${preview.id}-${stat.size}"`,
      contentType: () => preview.contentType,
      fileName: `preview.${preview.contentType.split('/')[1] === 'jpeg' ? 'jpg' : preview.contentType.split('/')[1]}`,
      missing: () => new NotFoundError('devicePreview', preview.deviceId),
    },
    request,
  );
}

async function readOrGone(storage: BlobStore, key: string, range?: { start: number; end: number }): Promise<Readable> {
  const stream = await storage.read(key, range);
  if (!stream) throw new AppError(404, 'file.error.notFound', 'The file was deleted');

  return stream;
}

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;

  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** Thumbnails are client-made images: the type their first bytes show (server/storage/image-types.ts). */
async function sniffThumbnailType(storage: BlobStore, key: string, size: number): Promise<string> {
  const stream = size > 0 ? await storage.read(key, { start: 0, end: Math.min(size, IMAGE_SIGNATURE_BYTES) - 1 }) : undefined;
  if (!stream) return 'application/octet-stream';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);

  return sniffImageType(Buffer.concat(chunks)) ?? 'application/octet-stream';
}

/**
 * A download URL (of the file, or its thumbnail) that works without a bearer token until `expiresAt`. With
 * `deviceId` (the devices' manifest) it is that device's credential: it stops when the device does.
 */
export function signedDownloadUrl(
  config: Config,
  input: { customerId: number; fileId: string; thumbnail?: boolean; expiresAt: Date; baseUrl: string; deviceId?: string },
): string {
  return signedUrl(config, {
    method: 'GET',
    path: downloadPath(input.customerId, input.fileId, input.thumbnail),
    expiresAt: input.expiresAt,
    baseUrl: input.baseUrl,
    deviceId: input.deviceId,
  });
}

export type SignedUrls = { url: string; thumbnailUrl: string; expiresAt: number };

/** GET /api/v2/file/{id}/signedUrl: short-lived URLs that work without a bearer token. */
export async function fileSignedUrls(
  ctx: ServiceContext & { baseUrl: string },
  input: { id: string; expiresIn?: number },
): Promise<SignedUrls> {
  // The route's schema holds expiresIn within SIGNED_URL_MIN_SECONDS..SIGNED_URL_MAX_SECONDS.
  const seconds = input.expiresIn ?? SIGNED_URL_DEFAULT_SECONDS;
  const file = /^[0-9a-f-]{36}$/i.test(input.id)
    ? await findDownloadableFile(ctx.db, ctx.scope, input.id, teamAccessCondition(ctx, 'file', files.id))
    : undefined;
  if (!file) throw new NotFoundError('file', input.id);
  const expiresAt = new Date(Date.now() + seconds * 1000);
  const sign = (thumbnail: boolean) =>
    signedDownloadUrl(ctx.config, { customerId: file.customerId, fileId: file.id, thumbnail, expiresAt, baseUrl: ctx.baseUrl });

  return { url: sign(false), thumbnailUrl: sign(true), expiresAt: Math.floor(expiresAt.getTime() / 1000) * 1000 };
}

import { ValidationError } from '@/server/errors';
import { IMAGE_TYPES } from '@/server/storage/image-types';
import { supportedExtensions, uploadFileName } from './uploads.schemas';

/** Spec 2 "File": the supported extensions and their MIME types (declared with the upload schemas, whose name pattern states them). */
export { supportedExtensions };

const MiB = 1024 * 1024;

/** A simple (multipart) upload takes files under 200 MB (DECISIONS §3: 200 MB or more is a 413). */
export const MAX_SIMPLE_UPLOAD_BYTES = 200 * MiB - 1;
/** Thumbnails are small images made by the client; anything bigger is refused with 413. */
export const MAX_THUMBNAIL_BYTES = 10 * MiB;
/** What a thumbnail may be: every image type the service stores, its first bytes saying which (server/storage/image-types.ts). */
export const THUMBNAIL_TYPES = IMAGE_TYPES;
/** S3 refuses parts below 5 MiB except the last one (one declaration, in server/storage). */
export { S3_MIN_PART_SIZE } from '@/server/storage/s3-limits';
/** DECISIONS §7: a session not completed within 24 hours is cancelled. */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Signed part URLs live this long (capped at the session's expiry); `recover` hands out fresh ones. */
export const PART_URL_LIFETIME_SECONDS = 6 * 60 * 60;
/** Grace before the cleanup job may remove a blob whose writer has not committed its row yet. */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;
/**
 * A complete holds its claim on the session (COMPLETING) as a lease that it renews every quarter of
 * this while it runs; a claim not renewed for this long belongs to a completer that died (a crash,
 * kill -9), and the next complete, recover, cancel, part or the sweep job takes it over.
 */
export const COMPLETION_LEASE_MS = 60 * 1000;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');

  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** 400 `file.error.unsupportedType` unless the name ends in a supported extension. */
export function assertSupportedName(name: string): void {
  if (!uploadFileName.safeParse(name).success) {
    throw new ValidationError('file.error.invalidName', 'A file name is 1 to 255 characters without slashes', { name });
  }
  if (!(extensionOf(name) in supportedExtensions)) {
    throw new ValidationError('file.error.unsupportedType', `Files of type '.${extensionOf(name)}' are not supported`, {
      name,
      supportedExtensions: Object.keys(supportedExtensions),
    });
  }
}

export type ChunkLayout = { size: number; totalChunks: number; maxChunkSize: number };

/**
 * DECISIONS §7: `maxChunkSize = ceil(size / totalChunks)`; every part but the last is exactly that
 * size and the last holds the remainder, which must not be empty (e.g. 10 bytes in 6 chunks is refused).
 */
export function chunkLayout(size: number, totalChunks: number): ChunkLayout {
  const maxChunkSize = Math.ceil(size / totalChunks);
  if ((totalChunks - 1) * maxChunkSize >= size) {
    throw new ValidationError(
      'upload.error.invalidChunkCount',
      `${size} bytes cannot be split into ${totalChunks} chunks of ${maxChunkSize} bytes with a non-empty last chunk`,
      {
        size,
        totalChunks,
        maxChunkSize,
      },
    );
  }

  return { size, totalChunks, maxChunkSize };
}

/** The exact size of part `partNumber` (1-based) and where it starts in the final file. */
export function partGeometry(layout: ChunkLayout, partNumber: number): { offset: number; expectedSize: number } {
  const offset = (partNumber - 1) * layout.maxChunkSize;
  const expectedSize = partNumber === layout.totalChunks ? layout.size - offset : layout.maxChunkSize;

  return { offset, expectedSize };
}

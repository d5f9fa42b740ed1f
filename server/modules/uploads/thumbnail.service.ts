import type { Readable } from 'node:stream';
import { withTransaction } from '@/server/db/transaction';
import { AppError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import type { UploadedFile } from './uploads.schemas';
import { auditChange } from '@/server/modules/audit-log';
import { assertWritable } from '@/server/modules/teams';
import { mediaTypeOf } from '@/server/http/request-input';
import { checkedImageStream, isAcceptedImageType } from '@/server/storage/image-types';
import { thumbnailBlobKey } from '@/server/storage/keys';
import { readFiles } from './upload-common';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { findDownloadableFile, touchThumbnail } from './uploads.queries';
import { deleteCleanupEntries, insertCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import { MAX_THUMBNAIL_BYTES, THUMBNAIL_TYPES, UPLOAD_GRACE_MS } from './uploads.rules';

export const emptyThumbnail = () => new ValidationError('file.error.emptyThumbnail', 'The thumbnail body is empty');
/** A thumbnail whose bytes are not an accepted image (or not the type declared for it). */
export const thumbnailRefused = () =>
  new UnsupportedMediaTypeError(`A thumbnail's bytes must be a ${THUMBNAIL_TYPES.join(', ')} image (the declared type, if any)`);

/**
 * PUT /api/v2/file/upload/{fileId}/thumbnail: the client-made thumbnail (spec 2: the server makes
 * none) streamed to the `.tmb` key; sets `lastPreviewUploadTime`. A new upload replaces the old one; a
 * refused or empty one leaves it (the stores replace a blob only once the new one is whole).
 */
export async function uploadThumbnail(
  ctx: ServiceContext,
  input: { fileId: string; contentType: string | undefined; contentLength?: number; body: Readable | undefined },
): Promise<UploadedFile> {
  const file = /^[0-9a-f-]{36}$/i.test(input.fileId) ? await findDownloadableFile(ctx.db, ctx.scope, input.fileId) : undefined;
  if (!file) throw new NotFoundError('file', input.fileId);
  await assertWritable(ctx.db, ctx, 'file', file.id);
  if (!isAcceptedImageType(input.contentType, THUMBNAIL_TYPES))
    throw new UnsupportedMediaTypeError(`A thumbnail is a ${THUMBNAIL_TYPES.join(', ')} body`);
  if (input.contentLength !== undefined && input.contentLength > MAX_THUMBNAIL_BYTES) {
    throw new PayloadTooLargeError(`A thumbnail is at most ${MAX_THUMBNAIL_BYTES} bytes`, 'file.error.thumbnailTooLarge', {
      maxBytes: MAX_THUMBNAIL_BYTES,
    });
  }
  if (!input.body) throw emptyThumbnail();

  const key = thumbnailBlobKey(file.customerId, file.id);
  // If the file row disappears meanwhile (deleted), the entry makes the cleanup job remove this blob.
  await insertCleanupEntries(ctx.db, [key], new Date(Date.now() + UPLOAD_GRACE_MS), 'thumbnail upload');
  let stored;
  try {
    const image = checkedImageStream(input.body, {
      accepted: THUMBNAIL_TYPES,
      declared: input.contentType,
      refused: thumbnailRefused,
      empty: emptyThumbnail,
    });
    stored = await ctx.storage.put(key, image, { maxBytes: MAX_THUMBNAIL_BYTES, contentType: mediaTypeOf(input.contentType) });
  } catch (error) {
    if (error instanceof AppError && error.status === 413) {
      throw new PayloadTooLargeError(`A thumbnail is at most ${MAX_THUMBNAIL_BYTES} bytes`, 'file.error.thumbnailTooLarge', {
        maxBytes: MAX_THUMBNAIL_BYTES,
      });
    }
    throw error;
  }
  const kept = await withTransaction(ctx.db, async (tx) => {
    if (!(await touchThumbnail(tx, { fileId: file.id, customerId: file.customerId, at: new Date() }))) return false;
    await deleteCleanupEntries(tx, [key]);
    await auditChange(tx, ctx, {
      action: 'uploadThumbnail',
      entityType: 'file',
      entityId: file.id,
      entityName: file.name,
      customerId: file.customerId,
      message: `Thumbnail of ${file.name} uploaded (${stored.size} bytes)`,
    });

    return true;
  });
  if (!kept) {
    await discardBlobs(ctx, [key]);
    throw new NotFoundError('file', file.id);
  }

  return (await readFiles(ctx.db, ctx, [file.id]))[0]!;
}

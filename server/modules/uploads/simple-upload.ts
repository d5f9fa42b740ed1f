import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import { AppError, UnsupportedMediaTypeError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import type { ServiceContext } from '@/server/context/service-context';
import type { UploadedFile } from './uploads.schemas';
import { resolveTargetFolder } from '@/server/modules/file-folders';
import { checkedImageStream } from '@/server/storage/image-types';
import { fileBlobKey, thumbnailBlobKey } from '@/server/storage/keys';
import { assertNoNul } from '@/server/http/hostile-input';
import { extensionType, storedContentType } from './content-types';
import { createFileFromBlob, type FileCreateParameters } from './file-create';
import { detectDimensions } from './media-dimensions';
import { emptyThumbnail, thumbnailRefused } from './thumbnail.service';
import { fileCreateParameters, readFiles, type CreateParameterInput } from './upload-common';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { insertCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import { assertSupportedName, MAX_SIMPLE_UPLOAD_BYTES, MAX_THUMBNAIL_BYTES, THUMBNAIL_TYPES, UPLOAD_GRACE_MS } from './uploads.rules';

export type SimpleUploadInput = CreateParameterInput & { parentId?: string };

type ReceivedFile = { id: string; name: string; contentType: string; size: number; crc32: string; key: string; thumbnailAt?: Date };

/** Limits of one multipart body (beyond the per-file size cap). */
const BODY_LIMITS = { files: 500, fields: 100, parts: 600, fieldSize: 64 * 1024, headerPairs: 100 };

/**
 * POST /api/file: a multipart body with parts `files` and `previews` (a preview pairs with the file of
 * exactly its name, arriving before or after it). Every part streams straight to storage; a file of
 * 200 MB or more stops the read with 413. Blobs are covered by cleanup entries from before their first
 * byte until the transaction that inserts their rows, so a failure or crash at any point leaves none.
 */
export async function uploadFiles(
  ctx: ServiceContext,
  input: { query: SimpleUploadInput; contentType: string | undefined; body: Readable | undefined },
): Promise<UploadedFile[]> {
  if (!input.contentType || !/^multipart\/form-data\b/i.test(input.contentType)) {
    throw new UnsupportedMediaTypeError('POST /api/file takes a multipart/form-data body');
  }
  if (!input.body) throw new ValidationError('upload.error.badMultipart', 'The multipart body is empty');
  const params = fileCreateParameters(input.query);
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  // Fail before the upload when the folder is wrong (checked again in the transaction).
  await resolveTargetFolder(ctx.db, ctx, customerId, input.query.parentId);

  const written: string[] = [];
  let received: ReceivedFile[] = [];
  try {
    received = await receiveParts(ctx, { customerId, body: input.body, contentType: input.contentType, written });
    if (received.length === 0) throw new ValidationError('upload.error.noFiles', 'The body holds no part named `files`');
    if (params.fileIdToReplace && received.length > 1) {
      throw new ValidationError(INVALID_COMBINATION, 'fileIdToReplace takes exactly one file', {
        parameter: 'fileIdToReplace',
        files: received.length,
      });
    }
    const dimensions = await Promise.all(received.map((file) => dimensionsOf(ctx, file, params)));
    const ids = await withTransaction(ctx.db, async (tx) => {
      const folder = await resolveTargetFolder(tx, ctx, customerId, input.query.parentId);
      for (const [i, file] of received.entries()) {
        await createFileFromBlob(tx, ctx, {
          folder,
          blob: {
            id: file.id,
            name: file.name,
            contentType: file.contentType,
            size: file.size,
            crcCheckSum: file.crc32,
            claimedKeys: [file.key, thumbnailBlobKey(customerId, file.id)],
            thumbnailUploadedAt: file.thumbnailAt,
          },
          params: { ...params, ...dimensions[i] },
        });
      }

      return received.map((f) => f.id);
    });

    return await readFiles(ctx.db, ctx, ids);
  } catch (error) {
    await discardBlobs(ctx, written);
    throw error;
  }
}

async function dimensionsOf(
  ctx: ServiceContext,
  file: ReceivedFile,
  params: FileCreateParameters,
): Promise<{ width?: number; height?: number }> {
  if (params.width !== undefined && params.height !== undefined) return {};
  const detected = await detectDimensions(ctx.storage, file.key, { name: file.name, contentType: file.contentType, size: file.size });

  // A hint the client gave wins over what the file says.
  return { width: params.width ?? detected?.width, height: params.height ?? detected?.height };
}

/** Streams the parts to storage in arrival order; answers the files (previews paired by name). */
async function receiveParts(
  ctx: ServiceContext,
  input: { customerId: number; body: Readable; contentType: string; written: string[] },
): Promise<ReceivedFile[]> {
  const { customerId, body, written } = input;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': input.contentType }, limits: BODY_LIMITS, defParamCharset: 'utf8' });
  } catch (error) {
    throw new ValidationError('upload.error.badMultipart', `The multipart body cannot be read: ${(error as Error).message}`);
  }
  const filesByOrder: ReceivedFile[] = [];
  // A preview that arrives first reserves the id its file will get, so it is written to the final key.
  const waitingPreviews = new Map<string, { id: string; at: Date; key: string }[]>();
  const previewed = new Set<string>();

  // The part's declared type is ignored: the stored type is read from the bytes (content-types.ts).
  const storeFile = async (stream: Readable, name: string) => {
    assertSupportedName(name);
    const waiting = waitingPreviews.get(name)?.shift();
    const id = waiting?.id ?? uuidv7();
    const key = fileBlobKey(customerId, id);
    await insertCleanupEntries(ctx.db, [key], new Date(Date.now() + UPLOAD_GRACE_MS), 'upload in progress');
    written.push(key);
    const stored = await ctx.storage
      .put(key, stream, { maxBytes: MAX_SIMPLE_UPLOAD_BYTES, contentType: extensionType(name) })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.status === 413) {
          throw new AppError(
            413,
            'file.error.tooLarge',
            `${name}: a simple upload takes files under 200 MB; use the chunked upload for larger files`,
            {
              name,
              maxBytes: MAX_SIMPLE_UPLOAD_BYTES,
            },
          );
        }
        throw error;
      });
    const contentType = await storedContentType(ctx.storage, key, { name, size: stored.size });
    if (waiting) previewed.add(id);
    filesByOrder.push({ id, name, contentType, size: stored.size, crc32: stored.crc32, key, thumbnailAt: waiting?.at });
  };

  const storePreview = async (stream: Readable, name: string) => {
    const file = filesByOrder.find((f) => f.name === name && !previewed.has(f.id));
    const id = file?.id ?? uuidv7();
    const key = thumbnailBlobKey(customerId, id);
    await insertCleanupEntries(ctx.db, [key], new Date(Date.now() + UPLOAD_GRACE_MS), 'upload in progress');
    written.push(key);
    // As a thumbnail's own PUT: an image by its bytes (the part's declared type is ignored, as a file's is).
    await ctx.storage.put(
      key,
      checkedImageStream(stream, { accepted: THUMBNAIL_TYPES, refused: thumbnailRefused, empty: emptyThumbnail }),
      { maxBytes: MAX_THUMBNAIL_BYTES },
    );
    const at = new Date();
    if (file) {
      previewed.add(file.id);
      file.thumbnailAt = at;
    } else {
      waitingPreviews.set(name, [...(waitingPreviews.get(name) ?? []), { id, at, key }]);
    }
  };

  await new Promise<void>((resolve, reject) => {
    let chain = Promise.resolve();
    let failed = false;
    let current: Readable | undefined;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // Stop reading the request: nothing more is stored (the response closes the connection).
      body.unpipe(parser);
      current?.destroy();
      chain.finally(() => reject(error)).catch(() => undefined);
    };
    parser.on('file', (field: string, stream: Readable, info: busboy.FileInfo) => {
      // A part waiting its turn (or skipped) has no reader yet; busboy fails it on a cut-off body
      // ("Unexpected end of form"). That failure reaches us through the parser: never let it go uncaught.
      stream.on('error', () => undefined);
      chain = chain
        .then(async () => {
          if (failed) {
            stream.resume();
            return;
          }
          current = stream;
          const name = info.filename ?? '';
          // A NUL in a part's name or file name is refused like one anywhere else in a request (400).
          assertNoNul('multipart', { [field]: name });
          if (field === 'files') await storeFile(stream, name);
          else if (field === 'previews') await storePreview(stream, name);
          else stream.resume(); // unknown parts are skipped
          if ((stream as Readable & { truncated?: boolean }).truncated)
            throw new ValidationError('upload.error.badMultipart', 'A part exceeds the body limits');
        })
        .catch((error: unknown) => {
          fail(error);
        });
    });
    parser.on('field', (field: string, value: string) => {
      try {
        assertNoNul('multipart', { [field]: value });
      } catch (error) {
        fail(error);
      }
    });
    parser.on('filesLimit', () => fail(new ValidationError('upload.error.tooManyFiles', `At most ${BODY_LIMITS.files} parts per request`)));
    parser.on('partsLimit', () => fail(new ValidationError('upload.error.tooManyFiles', `At most ${BODY_LIMITS.parts} parts per request`)));
    parser.on('error', (error: Error) =>
      fail(new ValidationError('upload.error.badMultipart', `The multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => {
      void chain.then(() => {
        if (!failed) resolve();
      });
    });
    body.on('error', (error) =>
      fail(new ValidationError('upload.error.badMultipart', `The request body was interrupted: ${error.message}`)),
    );
    body.pipe(parser);
  });
  // Previews without a file of the same name are dropped.
  const orphans = [...waitingPreviews.values()].flat().map((p) => p.key);
  if (orphans.length > 0) {
    await discardBlobs(ctx, orphans);
    written.splice(0, written.length, ...written.filter((k) => !orphans.includes(k)));
  }

  return filesByOrder;
}

import type { Readable } from 'node:stream';
import type { ServiceContext } from '@/server/context/service-context';
import { allTenants, customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { AppError, ConflictError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@/server/errors';
import type { BlobStore, StoredPart } from '@/server/storage/blob-store';
import { assertOpen, hasStaleClaim, layoutOf, notOpenError, sessionInScope, type PartResponse } from './upload-sessions.service';
import { findSession, lockSessionForPart, upsertPart } from './uploads.queries';
import { partGeometry } from './uploads.rules';
import type { UploadSessionRow } from './uploads.table';

/*
 * The parts of an upload session (spec: chunked upload): one part streamed to the store and recorded, from the
 * bearer route or a signed part URL. The session's own verbs (init, recover, cancel) are upload-sessions.service.ts.
 */

/** RFC 9110 §8.3: a body without Content-Type may be taken as application/octet-stream. */
const OCTET_STREAM = /^application\/octet-stream\s*(;.*)?$/i;

/**
 * PUT …/part/{partNumber}: streams one part to the store. Every part but the last is exactly
 * `maxChunkSize` bytes; the last holds the remainder. A part sent again replaces the earlier one once
 * it has arrived whole (of concurrent sends the last to complete wins), and the part's recorded CRC is
 * written in the same order (the store's `commit`), so it always describes the bytes kept.
 * `session` comes from the bearer route (tenant-checked) or the signed-URL route (token-checked).
 */
export async function uploadPart(
  deps: { db: Executor; storage: BlobStore },
  input: { session: UploadSessionRow; partNumber: number; contentType?: string; contentLength?: number; body: Readable | undefined },
): Promise<PartResponse> {
  const { session, partNumber } = input;
  if (input.contentType !== undefined && !OCTET_STREAM.test(input.contentType)) {
    throw new UnsupportedMediaTypeError('A chunk is sent as an application/octet-stream body');
  }
  assertOpen(session);
  if (session.expiresAt.getTime() <= Date.now()) throw notOpenError(session);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > session.totalChunks) {
    throw new ValidationError('upload.error.invalidPartNumber', `partNumber must be 1..${session.totalChunks}`, {
      partNumber,
      totalChunks: session.totalChunks,
    });
  }
  const { offset, expectedSize } = partGeometry(layoutOf(session), partNumber);
  if (input.contentLength !== undefined) {
    if (input.contentLength > session.maxChunkSize) {
      throw new PayloadTooLargeError(`A chunk is at most ${session.maxChunkSize} bytes`, 'upload.error.chunkTooLarge', {
        partNumber,
        maxChunkSize: session.maxChunkSize,
      });
    }
    if (input.contentLength !== expectedSize) {
      throw new ValidationError(
        'upload.error.wrongPartSize',
        `Part ${partNumber} must be ${expectedSize} bytes, got ${input.contentLength}`,
        {
          partNumber,
          expectedSize,
          receivedSize: input.contentLength,
        },
      );
    }
  }
  if (!input.body)
    throw new ValidationError('upload.error.wrongPartSize', `Part ${partNumber} must be ${expectedSize} bytes, got 0`, {
      partNumber,
      expectedSize,
      receivedSize: 0,
    });
  let stored: StoredPart;
  try {
    stored = await deps.storage.multipart.putPart(
      session.storageKey,
      session.storageUploadId,
      { partNumber, offset, expectedSize },
      input.body,
      {
        commit: (part) => recordPart(deps.db, session, partNumber, part),
      },
    );
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw partTooLong(session, partNumber, expectedSize);
    if (
      error instanceof AppError &&
      (error.key === 'upload.error.notOpen' || error.key === 'upload.error.completing' || error.key === 'upload.error.unknownUpload')
    ) {
      throw await partRefused(deps, session);
    }
    throw error;
  }

  return { partNumber, etag: stored.etag, uploadedSize: stored.size, sessionId: session.id, success: true, message: 'Part uploaded' };
}

/**
 * The store's commit of a part: records its size, ETag and CRC while the session row is locked, so a
 * cancel or complete either comes first (the part is refused, nothing replaced) or waits for it.
 */
async function recordPart(db: Executor, session: UploadSessionRow, partNumber: number, part: StoredPart): Promise<void> {
  await withTransaction(db, async (tx) => {
    const current = await lockSessionForPart(tx, session);
    if (!current) throw new NotFoundError('upload', session.id);
    if (!current.takesParts) throw notOpenError({ ...current, id: session.id });
    await upsertPart(tx, { sessionId: session.id, partNumber, size: part.size, etag: part.etag, crc32: part.crc32 });
  });
}

/**
 * A part the session stopped taking while it arrived (cancelled, completed or completing): 409. On S3 a
 * part can still land after a cancel's abort (S3 finishes uploads in flight), so the upload is aborted again.
 */
async function partRefused(deps: { db: Executor; storage: BlobStore }, session: UploadSessionRow): Promise<AppError> {
  const current = await findSession(deps.db, customerScope(session.customerId), session.id);
  if (!current) return new NotFoundError('upload', session.id);
  if (current.state === 'CANCELLED') await deps.storage.multipart.abort(current.storageKey, current.storageUploadId).catch(() => undefined);
  if (current.state === 'OPEN' || hasStaleClaim(current)) {
    // The store has no upload any more while the session is open: a complete assembled the parts and then failed.
    return new ConflictError('upload.error.notOpen', 'The parts were assembled already: complete the upload', {
      uploadId: session.id,
      state: current.state,
    });
  }

  return notOpenError(current);
}

/**
 * A streamed part (no Content-Length) longer than its size, stopped by the store after `expectedSize`
 * bytes: answered as a declared length would be — 413 for a full-size part (more than `maxChunkSize`),
 * 400 for the shorter last part (how much longer it was is not read).
 */
function partTooLong(session: UploadSessionRow, partNumber: number, expectedSize: number) {
  if (expectedSize === session.maxChunkSize) {
    return new PayloadTooLargeError(`A chunk is at most ${session.maxChunkSize} bytes`, 'upload.error.chunkTooLarge', {
      partNumber,
      maxChunkSize: session.maxChunkSize,
    });
  }

  return new ValidationError('upload.error.wrongPartSize', `Part ${partNumber} must be ${expectedSize} bytes, got more`, {
    partNumber,
    expectedSize,
  });
}

export async function uploadPartAsCaller(
  ctx: ServiceContext,
  input: { sessionId: string; partNumber: number; contentType?: string; contentLength?: number; body: Readable | undefined },
): Promise<PartResponse> {
  const session = await sessionInScope(ctx, input.sessionId);

  return uploadPart(ctx, { ...input, session });
}

/** The session addressed by a signed part URL (the token already proved the path). */
export async function sessionById(db: Executor, id: string): Promise<UploadSessionRow> {
  // The token signed this session's path: it vouches for the row, whatever its tenant.
  const session = await findSession(db, allTenants, id);
  if (!session) throw new NotFoundError('upload', id);

  return session;
}

import { customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { AppError, ConflictError, LimitReachedError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import type { UploadedFile } from './uploads.schemas';
import { resolveTargetFolder } from '@/server/modules/file-folders';
import { MeasuringStream } from '@/server/storage/crc32';
import { storedContentType } from './content-types';
import { combinePartCrcs } from './crc32-combine';
import { createFileFromBlob } from './file-create';
import { detectDimensions } from './media-dimensions';
import { assertOpen, notOpenError, range, receivedParts, sessionInScope } from './upload-sessions.service';
import { fileCreateParameters, readFiles } from './upload-common';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import {
  claimCompletion,
  deletePartRows,
  endCompletion,
  findPartRows,
  findSession,
  renewCompletion,
  storageUsage,
  type SessionKey,
} from './uploads.queries';
import { insertCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import { COMPLETION_LEASE_MS, UPLOAD_GRACE_MS } from './uploads.rules';
import type { UploadSessionRow } from './uploads.table';

/**
 * POST …/{uploadId}/complete. Claims the session (OPEN → COMPLETING) so two completes never assemble
 * at once, keeps the claim alive as a lease while it assembles the parts outside any transaction (it
 * may take minutes), then creates the file row with the session's create parameters. A claim whose
 * completer died (crash, kill -9) lapses after COMPLETION_LEASE_MS and is taken over by the next
 * complete, whatever state it left: parts intact, or the blob assembled already. A repeated complete
 * answers the same file.
 */
export async function completeUpload(ctx: ServiceContext, uploadId: string): Promise<UploadedFile> {
  const session = await sessionInScope(ctx, uploadId);
  if (session.state === 'COMPLETED') {
    if (!session.fileId) throw new NotFoundError('file', session.id);
    return (await readFiles(ctx.db, ctx, [session.fileId]))[0]!;
  }
  assertOpen(session);
  if (session.expiresAt.getTime() <= Date.now()) throw notOpenError(session);
  // Early checks, before the claim, so a complete that cannot succeed never blocks parts still arriving.
  const early = await assemblyPlan(ctx, session);
  if (early.missing.length > 0) {
    throw new ConflictError('upload.error.partsMissing', `${early.missing.length} of ${session.totalChunks} chunks are missing`, {
      missingChunks: early.missing.slice(0, 1000),
    });
  }
  const params = fileCreateParameters({
    teamIds: session.teamIds ?? undefined,
    tags: session.tags,
    validFrom: session.validFrom?.getTime(),
    validTo: session.validTo?.getTime(),
    muted: session.muted,
    metaData: session.metaData ?? undefined,
  });
  await resolveTargetFolder(ctx.db, ctx, session.customerId, session.parentId ?? undefined);
  // The session's own bytes are reserved already; they must still fit if the limit was lowered meanwhile.
  const usage = await storageUsage(ctx.db, session.customerId, session.id);
  if (usage.used + session.size > usage.limit) throw new LimitReachedError('STORAGE', usage.used, usage.limit);

  const token = await claimCompletion(ctx.db, session);
  if (!token) {
    const current = await findSession(ctx.db, customerScope(session.customerId), session.id);
    if (current?.state === 'COMPLETED' && current.fileId) return (await readFiles(ctx.db, ctx, [current.fileId]))[0]!;
    throw notOpenError(current ?? session);
  }
  const claim = keepClaim(ctx.db, session, token);
  let corrupt = false;
  try {
    // The assembled blob must outlive the session, which a crash may leave to be completed again later;
    // cancel and expiry remove it at once, this entry only catches what nothing else will.
    await insertCleanupEntries(
      ctx.db,
      [session.storageKey],
      new Date(Math.max(session.expiresAt.getTime(), Date.now()) + UPLOAD_GRACE_MS),
      'chunked upload completing',
    );
    // Listed again under the claim: from here on no part is replaced (the store refuses them).
    const { assembled, parts, missing } = await assemblyPlan(ctx, session);
    if (missing.length > 0) {
      throw new ConflictError('upload.error.partsMissing', `${missing.length} of ${session.totalChunks} chunks are missing`, {
        missingChunks: missing.slice(0, 1000),
      });
    }
    if (!assembled) {
      await ctx.storage.multipart.complete(
        session.storageKey,
        session.storageUploadId,
        parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
      );
    }
    const crc = await checksumOf(ctx, session, parts);
    if (session.crcChecksum && session.crcChecksum !== crc) {
      corrupt = true;
      throw new ValidationError('upload.error.checksumMismatch', `The received bytes have CRC32 ${crc}, not ${session.crcChecksum}`, {
        expected: session.crcChecksum,
        actual: crc,
      });
    }
    const contentType = await storedContentType(ctx.storage, session.storageKey, { name: session.name, size: session.size });
    const dims: { width?: number; height?: number } =
      session.width !== null && session.height !== null
        ? { width: session.width, height: session.height }
        : ((await detectDimensions(ctx.storage, session.storageKey, { name: session.name, contentType, size: session.size })) ?? {});
    const current = await claim.stop();
    if (!current) throw new ConflictError('upload.error.completing', 'Another complete took the upload over', { uploadId: session.id });
    await withTransaction(ctx.db, async (tx) => {
      const folder = await resolveTargetFolder(tx, ctx, session.customerId, session.parentId ?? undefined);
      await createFileFromBlob(tx, ctx, {
        folder,
        blob: {
          id: session.id,
          name: session.name,
          contentType,
          size: session.size,
          crcCheckSum: crc,
          claimedKeys: [session.storageKey],
          sessionId: session.id,
        },
        params: { ...params, width: session.width ?? dims.width, height: session.height ?? dims.height },
      });
      if (!(await endCompletion(tx, session, current, { state: 'COMPLETED', fileId: session.id }))) {
        throw new ConflictError('upload.error.notOpen', 'The upload ended while it was being completed', { uploadId: session.id });
      }
      await deletePartRows(tx, session.id);
    });
  } catch (error) {
    const current = await claim.stop();
    if (current && !corrupt) {
      // The parts (or the assembled blob, which complete goes on from) are intact: the client may complete again.
      await endCompletion(ctx.db, session, current, { state: 'OPEN' }).catch(() => undefined);
    } else if (current) {
      // Bytes that do not match the client's checksum cannot become a file: the session ends, its bytes go.
      if (await endCompletion(ctx.db, session, current, { state: 'CANCELLED' }).catch(() => false)) {
        await discardBlobs(ctx, [session.storageKey]);
        await deletePartRows(ctx.db, session.id).catch(() => undefined);
      }
    }
    throw error;
  }

  return (await readFiles(ctx.db, ctx, [session.id]))[0]!;
}

/**
 * What complete has to work with: the blob assembled already (a complete that failed or died after
 * the assembly), else the parts the store holds in the right sizes.
 */
async function assemblyPlan(ctx: ServiceContext, session: UploadSessionRow) {
  const assembled = (await ctx.storage.stat(session.storageKey))?.size === session.size;
  const parts = assembled ? [] : await receivedParts(ctx, session);
  const present = new Set(parts.map((p) => p.partNumber));
  const missing = assembled ? [] : range(1, session.totalChunks).filter((n) => !present.has(n));

  return { assembled, parts, missing };
}

/**
 * Renews the claim every quarter of the lease while the complete runs. `stop()` ends the renewals and
 * answers the claim's current token, or undefined when another completer took the claim over.
 */
function keepClaim(db: Executor, session: SessionKey, token: Date): { stop(): Promise<Date | undefined> } {
  let current: Date | undefined = token;
  let renewing: Promise<void> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      if (!current || stopped) return;
      // A failed renewal (the database away for a moment) keeps the token: the next one may still succeed.
      current = await renewCompletion(db, session, current).catch(() => current);
    });
  }, COMPLETION_LEASE_MS / 4);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await renewing;

      return current;
    },
  };
}

/** CRC32 of the whole file: combined from the part CRCs the server computed, else one read of the blob. */
async function checksumOf(
  ctx: ServiceContext,
  session: UploadSessionRow,
  parts: ReadonlyArray<{ partNumber: number; size: number; etag: string }>,
): Promise<string> {
  const rows = new Map((await findPartRows(ctx.db, session.id)).map((r) => [r.partNumber, r]));
  const known = parts.map((p) => {
    const row = rows.get(p.partNumber);
    // A recorded CRC counts only for the bytes the store holds: the same ETag (an S3 part re-sent to a presigned URL differs).
    const matches = row && row.crc32 && row.size === p.size && row.etag === p.etag;

    return matches ? { crc32: row.crc32!, size: row.size } : undefined;
  });
  if (known.length === session.totalChunks && known.every((k) => k !== undefined))
    return combinePartCrcs(known as { crc32: string; size: number }[]);
  const stream = await ctx.storage.read(session.storageKey);
  if (!stream) throw new AppError(500, 'upload.error.assemblyFailed', 'The assembled file is missing');
  const measure = new MeasuringStream();
  for await (const chunk of stream.pipe(measure)) void chunk;

  return measure.crc32;
}

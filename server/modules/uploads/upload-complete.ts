import { withTransaction } from '@/server/db/transaction';
import { AppError, ConflictError, LimitReachedError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/http/context';
import { resolveTargetFolder } from '@/server/modules/file-folders/folder-access';
import { MeasuringStream } from '@/server/storage/crc32';
import { storedContentType } from './content-types';
import { combinePartCrcs } from './crc32-combine';
import { createFileFromBlob } from './file-create';
import { detectDimensions } from './media-dimensions';
import { assertOpen, range, receivedParts, sessionInScope } from './upload-sessions.service';
import { discardBlobs, fileCreateParameters, readFiles } from './upload-common';
import { deletePartRows, findPartRows, insertCleanupEntries, storageUsage, transitionSession } from './uploads.queries';
import { COMPLETE_GRACE_MS } from './uploads.rules';
import type { UploadSessionRow } from './uploads.table';

/**
 * POST …/{uploadId}/complete. Claims the session (OPEN → COMPLETING) so two completes never assemble
 * at once, assembles the parts outside any transaction (it may take minutes), then creates the file
 * row with the session's create parameters. A repeated complete answers the same file.
 */
export async function completeUpload(ctx: ServiceContext, uploadId: string): Promise<Record<string, unknown>> {
  const session = await sessionInScope(ctx, uploadId);
  if (session.state === 'COMPLETED') {
    if (!session.fileId) throw new NotFoundError('file', session.id);
    return (await readFiles(ctx.db, ctx, [session.fileId]))[0]!;
  }
  const staleClaim = session.state === 'COMPLETING' && session.completingSince !== null && session.completingSince.getTime() < Date.now() - COMPLETE_GRACE_MS;
  if (!staleClaim) assertOpen(session);

  // A complete that failed after assembling (e.g. the folder was deleted meanwhile) left the whole blob:
  // a retry goes on from there (the parts themselves were consumed by the assembly).
  const alreadyAssembled = (await ctx.storage.stat(session.storageKey))?.size === session.size;
  const parts = alreadyAssembled ? [] : await receivedParts(ctx, session);
  const present = new Set(parts.map((p) => p.partNumber));
  const missing = alreadyAssembled ? [] : range(1, session.totalChunks).filter((n) => !present.has(n));
  if (missing.length > 0) {
    throw new ConflictError('upload.error.partsMissing', `${missing.length} of ${session.totalChunks} chunks are missing`, { missingChunks: missing.slice(0, 1000) });
  }
  const params = fileCreateParameters({
    teamIds: session.teamIds ?? undefined,
    tags: session.tags,
    validFrom: session.validFrom?.getTime(),
    validTo: session.validTo?.getTime(),
    muted: session.muted,
    metaData: session.metaData ?? undefined,
  });
  const folderCheck = () => resolveTargetFolder(ctx.db, ctx, session.customerId, session.parentId ?? undefined);
  await folderCheck();
  const usage = await storageUsage(ctx.db, session.customerId);
  if (usage.used + session.size > usage.limit) throw new LimitReachedError('STORAGE', usage.used, usage.limit);

  const claimed = await transitionSession(ctx.db, session.id, staleClaim ? ['COMPLETING'] : ['OPEN'], { state: 'COMPLETING', completingSince: new Date() });
  if (!claimed) throw new ConflictError('upload.error.completing', 'The upload is being completed', { uploadId: session.id });
  await insertCleanupEntries(ctx.db, [session.storageKey], new Date(Date.now() + COMPLETE_GRACE_MS), 'chunked upload completing');

  let assembled = alreadyAssembled;
  let corrupt = false;
  try {
    if (!alreadyAssembled) {
      await ctx.storage.multipart.complete(session.storageKey, session.storageUploadId, parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })));
      assembled = true;
    }
    const crc = await checksumOf(ctx, session, parts);
    if (session.crcChecksum && session.crcChecksum !== crc) {
      corrupt = true;
      throw new ValidationError('upload.error.checksumMismatch', `The received bytes have CRC32 ${crc}, not ${session.crcChecksum}`, { expected: session.crcChecksum, actual: crc });
    }
    const contentType = await storedContentType(ctx.storage, session.storageKey, { name: session.name, size: session.size });
    const dims: { width?: number; height?: number } =
      session.width !== null && session.height !== null
        ? { width: session.width, height: session.height }
        : ((await detectDimensions(ctx.storage, session.storageKey, { name: session.name, contentType, size: session.size })) ?? {});
    await withTransaction(ctx.db, async (tx) => {
      const folder = await resolveTargetFolder(tx, ctx, session.customerId, session.parentId ?? undefined);
      await createFileFromBlob(tx, ctx, {
        folder,
        blob: { id: session.id, name: session.name, contentType, size: session.size, crcCheckSum: crc, claimedKeys: [session.storageKey] },
        params: { ...params, width: session.width ?? dims.width, height: session.height ?? dims.height },
      });
      if (!(await transitionSession(tx, session.id, ['COMPLETING'], { state: 'COMPLETED', fileId: session.id, completingSince: null }))) {
        throw new ConflictError('upload.error.notOpen', 'The upload expired while it was being completed', { uploadId: session.id });
      }
      await deletePartRows(tx, session.id);
    });
  } catch (error) {
    if (!assembled || !corrupt) {
      // The parts (or the assembled blob, still covered by its cleanup entry) are intact: the client may complete again.
      await transitionSession(ctx.db, session.id, ['COMPLETING'], { state: 'OPEN', completingSince: null }).catch(() => undefined);
    } else {
      // Bytes that do not match the client's checksum cannot become a file: the session ends.
      await discardBlobs(ctx, [session.storageKey]);
      await transitionSession(ctx.db, session.id, ['COMPLETING'], { state: 'CANCELLED', completingSince: null }).catch(() => undefined);
      await deletePartRows(ctx.db, session.id).catch(() => undefined);
    }
    throw error;
  }

  return (await readFiles(ctx.db, ctx, [session.id]))[0]!;
}

/** CRC32 of the whole file: combined from the part CRCs the server computed, else one read of the blob. */
async function checksumOf(ctx: ServiceContext, session: UploadSessionRow, parts: ReadonlyArray<{ partNumber: number; size: number; etag: string }>): Promise<string> {
  const rows = new Map((await findPartRows(ctx.db, session.id)).map((r) => [r.partNumber, r]));
  const known = parts.map((p) => {
    const row = rows.get(p.partNumber);
    // The local store lists no etags; S3 lists the etag of the bytes it holds (a part re-sent to a presigned URL differs).
    const matches = row && row.crc32 && row.size === p.size && (ctx.storage.kind === 'local' || row.etag === p.etag);

    return matches ? { crc32: row.crc32!, size: row.size } : undefined;
  });
  if (known.length === session.totalChunks && known.every((k) => k !== undefined)) return combinePartCrcs(known as { crc32: string; size: number }[]);
  const stream = await ctx.storage.read(session.storageKey);
  if (!stream) throw new AppError(500, 'upload.error.assemblyFailed', 'The assembled file is missing');
  const measure = new MeasuringStream();
  for await (const chunk of stream.pipe(measure)) void chunk;

  return measure.crc32;
}


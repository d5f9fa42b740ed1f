import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { customerScope } from '@/server/context/tenant-scope';
import type { Config } from '@/server/config';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, LimitReachedError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { assertNoNul } from '@/server/http/hostile-input';
import { auditChange } from '@/server/modules/audit-log';
import { resolveTargetFolder } from '@/server/modules/file-folders';
import { parseTeamIdsParam, findMemberships, findTeamsByIds } from '@/server/modules/teams';
import { teamMemberOf } from '@/server/context/actor';
import type { BlobStore } from '@/server/storage/blob-store';
import { fileBlobKey } from '@/server/storage/keys';
import { extensionType } from './content-types';
import { signedUrl } from './signed-urls';
import { fileCreateParameters } from './upload-common';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { deletePartRows, findSession, insertSession, sessionFits, transitionOpenSession } from './uploads.queries';
import {
  assertSupportedName,
  chunkLayout,
  COMPLETION_LEASE_MS,
  PART_URL_LIFETIME_SECONDS,
  partGeometry,
  S3_MIN_PART_SIZE,
  SESSION_LIFETIME_MS,
  type ChunkLayout,
} from './uploads.rules';
import { type UploadSessionRow } from './uploads.table';

export type InitInput = {
  name: string;
  size: number;
  totalChunks: number;
  contentType?: string;
  metaData?: Record<string, unknown>;
  parentId?: string;
  tags?: string[];
  validFrom?: number;
  validTo?: number;
  width?: number;
  height?: number;
  muted?: boolean;
  crcChecksum?: string;
};

export type InitResponse = {
  uploadId: string;
  uploadUrls: Record<string, string>;
  maxChunkSize: number;
  name: string;
  size: number;
  totalChunks: number;
};
export type RecoverResponse = Omit<InitResponse, 'maxChunkSize'> & {
  maxChunkSize: number;
  uploadedChunks: number[];
  missingChunks: number[];
};
export type PartResponse = { partNumber: number; etag: string; uploadedSize: number; sessionId: string; success: boolean; message: string };

export const layoutOf = (s: UploadSessionRow): ChunkLayout => ({ size: s.size, totalChunks: s.totalChunks, maxChunkSize: s.maxChunkSize });
const partPath = (sessionId: string, partNumber: number) => `/api/v2/file/upload/${sessionId}/part/${partNumber}`;

/** POST /api/v2/file/upload/init: validates everything the final file needs, then opens the session. */
export async function initUpload(
  ctx: ServiceContext,
  input: { body: InitInput; teamIds?: string; baseUrl: string },
): Promise<InitResponse> {
  const { body } = input;
  assertNoNul('json', body);
  assertSupportedName(body.name);
  const layout = chunkLayout(body.size, body.totalChunks);
  if (ctx.storage.kind === 's3' && layout.totalChunks > 1 && layout.maxChunkSize < S3_MIN_PART_SIZE) {
    throw new ValidationError(
      'upload.error.chunkTooSmall',
      `The object store needs chunks of at least ${S3_MIN_PART_SIZE} bytes (5 MiB); use fewer chunks`,
      {
        maxChunkSize: layout.maxChunkSize,
        minChunkSize: S3_MIN_PART_SIZE,
        maxTotalChunks: Math.max(1, Math.floor(body.size / S3_MIN_PART_SIZE)),
      },
    );
  }
  const params = fileCreateParameters({ ...body, teamIds: input.teamIds });
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  await resolveTargetFolder(ctx.db, ctx, customerId, body.parentId);
  await assertTeamsAssignable(ctx, customerId, params.teamIds);
  const early = await sessionFits(ctx.db, customerId, body.size, false);
  if (!early.reserved) throw new LimitReachedError('STORAGE', early.used, early.limit);

  // The session id is also the id of the file it becomes, so the final key is known from the start.
  const id = uuidv7();
  const key = fileBlobKey(customerId, id);
  // The declared `contentType` is not trusted: complete reads the real type from the bytes (content-types.ts).
  const contentType = extensionType(body.name);
  const storageUploadId = await ctx.storage.multipart.create(key, { contentType });
  let session: UploadSessionRow;
  try {
    session = await withTransaction(ctx.db, async (tx) => {
      // The session row is the reservation of its bytes against the quota (decided under the customer's lock).
      const quota = await sessionFits(tx, customerId, body.size, true);
      if (!quota.reserved) throw new LimitReachedError('STORAGE', quota.used, quota.limit);
      const row = await insertSession(tx, {
        id,
        customerId,
        creatorId: ctx.actor.userId,
        name: body.name,
        size: body.size,
        totalChunks: body.totalChunks,
        maxChunkSize: layout.maxChunkSize,
        storageKey: key,
        storageUploadId,
        contentType,
        metaData: body.metaData ?? null,
        parentId: body.parentId ?? null,
        tags: params.tags,
        teamIds: params.teamIds ?? null,
        validFrom: params.validFrom ?? null,
        validTo: params.validTo ?? null,
        width: body.width ?? null,
        height: body.height ?? null,
        muted: params.muted,
        crcChecksum: body.crcChecksum?.toLowerCase() ?? null,
        expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS),
      });
      await auditChange(tx, ctx, {
        action: 'create',
        entityType: 'uploadSession',
        entityId: id,
        entityName: body.name,
        customerId,
        message: `Chunked upload of ${body.name} started (${body.size} bytes in ${body.totalChunks} chunks)`,
      });

      return row;
    });
  } catch (error) {
    await ctx.storage.multipart
      .abort(key, storageUploadId)
      .catch((err: unknown) => ctx.log.warn({ err, uploadId: id }, 'discarding an unused multipart upload failed'));
    throw error;
  }

  return {
    uploadId: id,
    uploadUrls: await uploadUrls(ctx, session, range(1, session.totalChunks), input.baseUrl),
    maxChunkSize: layout.maxChunkSize,
    name: session.name,
    size: session.size,
    totalChunks: session.totalChunks,
  };
}

/**
 * The teams of `teamIds` must exist in the customer and (below OWNER) be the caller's own, as
 * assignTeams demands at complete: checked at init so a bad id does not cost the uploaded bytes.
 */
async function assertTeamsAssignable(ctx: ServiceContext, customerId: number, teamIds: string | undefined): Promise<void> {
  const wanted = [...new Set(parseTeamIdsParam(teamIds).map((g) => g.teamId))];
  if (wanted.length === 0) return;
  const found = new Set((await findTeamsByIds(ctx.db, wanted, customerId)).map((t) => t.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw new NotFoundError('team', missing);
  const member = teamMemberOf(ctx.actor);
  if (!member) return;
  if ((await findMemberships(ctx.db, member, wanted)).length !== wanted.length) {
    throw new ForbiddenError('You can only assign resources to your own teams', 'team.error.notMember');
  }
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** Presigned S3 part URLs, or this service's part endpoint with a signed token (local storage). */
async function uploadUrls(
  ctx: { config: Config; storage: BlobStore },
  session: UploadSessionRow,
  partNumbers: number[],
  baseUrl: string,
): Promise<Record<string, string>> {
  const lifetime = Math.max(60, Math.min(PART_URL_LIFETIME_SECONDS, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)));
  const expiresAt = new Date(Date.now() + lifetime * 1000);
  const urls: Record<string, string> = {};
  for (const n of partNumbers) {
    const presigned = await ctx.storage.multipart.presignPart(session.storageKey, session.storageUploadId, n, lifetime);
    urls[String(n)] = presigned ?? signedUrl(ctx.config, { method: 'PUT', path: partPath(session.id, n), expiresAt, baseUrl });
  }

  return urls;
}

/** A session of the caller's tenant scope (another tenant's: 404, never revealing it). */
export async function sessionInScope(ctx: ServiceContext, id: string): Promise<UploadSessionRow> {
  const session = /^[0-9a-f-]{36}$/i.test(id) ? await findSession(ctx.db, ctx.scope, id) : undefined;
  if (!session) throw new NotFoundError('upload', id);

  return session;
}

/** COMPLETING whose lease ran out: the completer died, so the session is open again (uploads.rules.ts). */
export function hasStaleClaim(session: Pick<UploadSessionRow, 'state' | 'completingSince'>, now = Date.now()): boolean {
  return (
    session.state === 'COMPLETING' && (session.completingSince === null || session.completingSince.getTime() < now - COMPLETION_LEASE_MS)
  );
}

/** The 409 for a session that takes nothing now (a live complete, or completed, cancelled or expired). */
export function notOpenError(session: Pick<UploadSessionRow, 'id' | 'state' | 'completingSince' | 'expiresAt'>): ConflictError {
  const open = session.state === 'OPEN' || hasStaleClaim(session);
  if (session.state === 'COMPLETING' && !open)
    return new ConflictError('upload.error.completing', 'The upload is being completed', { uploadId: session.id });
  if (open && session.expiresAt.getTime() <= Date.now()) {
    return new ConflictError('upload.error.notOpen', 'The upload has expired', { uploadId: session.id, state: 'EXPIRED' });
  }

  return new ConflictError('upload.error.notOpen', `The upload is ${session.state.toLowerCase()}`, {
    uploadId: session.id,
    state: session.state,
  });
}

export function assertOpen(session: UploadSessionRow): void {
  if (session.state === 'OPEN' || hasStaleClaim(session)) return;
  throw notOpenError(session);
}

/** The parts the store holds, with the size each must have; wrong-sized ones count as missing. */
export async function receivedParts(ctx: { storage: BlobStore }, session: UploadSessionRow) {
  const listed = await ctx.storage.multipart.listParts(session.storageKey, session.storageUploadId);
  const layout = layoutOf(session);

  return listed.filter(
    (p) => p.partNumber >= 1 && p.partNumber <= session.totalChunks && p.size === partGeometry(layout, p.partNumber).expectedSize,
  );
}

/** GET …/{uploadId}/recover: what arrived, what is missing, and fresh URLs for the missing parts. */
export async function recoverUpload(ctx: ServiceContext, input: { uploadId: string; baseUrl: string }): Promise<RecoverResponse> {
  const session = await sessionInScope(ctx, input.uploadId);
  assertOpen(session);
  const all = range(1, session.totalChunks);
  const assembled = (await ctx.storage.stat(session.storageKey))?.size === session.size;
  const uploaded = new Set(assembled ? all : (await receivedParts(ctx, session)).map((p) => p.partNumber));
  const missing = all.filter((n) => !uploaded.has(n));

  return {
    uploadId: session.id,
    name: session.name,
    size: session.size,
    totalChunks: session.totalChunks,
    maxChunkSize: session.maxChunkSize,
    uploadedChunks: all.filter((n) => uploaded.has(n)),
    missingChunks: missing,
    uploadUrls: await uploadUrls(ctx, session, missing, input.baseUrl),
  };
}

/**
 * DELETE …/{uploadId}: cancels an open session and removes its bytes at once: the parts (parts still
 * arriving are stopped and answered 409) and a blob a failed complete had assembled already. Ending the
 * session also ends its reservation of the quota.
 */
export async function cancelUpload(ctx: ServiceContext, uploadId: string): Promise<void> {
  const session = await sessionInScope(ctx, uploadId);
  if (session.state === 'CANCELLED') return;
  assertOpen(session);
  const cancelled = await withTransaction(ctx.db, async (tx) => {
    if (!(await transitionOpenSession(tx, session, { state: 'CANCELLED' }))) return false;
    await deletePartRows(tx, session.id);
    await auditChange(tx, ctx, {
      action: 'cancel',
      entityType: 'uploadSession',
      entityId: session.id,
      entityName: session.name,
      customerId: session.customerId,
      message: `Chunked upload of ${session.name} cancelled`,
    });

    return true;
  });
  if (!cancelled) {
    const current = await findSession(ctx.db, customerScope(session.customerId), session.id);
    if (current?.state === 'CANCELLED') return;
    throw notOpenError(current ?? session);
  }
  await discardSessionBytes(ctx, session);
}

/** Removes what a session that ended without a file stored: its multipart upload and an assembled blob. */
export async function discardSessionBytes(
  ctx: Pick<ServiceContext, 'db' | 'log'> & { storage: BlobStore },
  session: UploadSessionRow,
): Promise<void> {
  await ctx.storage.multipart.abort(session.storageKey, session.storageUploadId);
  await discardBlobs(ctx, [session.storageKey]);
}

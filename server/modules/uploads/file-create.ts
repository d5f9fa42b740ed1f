import type { Executor } from '@/server/db/client';
import { LimitReachedError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import type { TargetFolder } from '@/server/modules/file-folders';
import { replaceFileReference, insertFileRow, type FileWriteContext } from '@/server/modules/files';
import { registerTags } from '@/server/modules/tags';
import { assignTeams } from '@/server/modules/teams';
import { announcePlaybackChange } from '@/server/playback/playback-changes';
import { copyFolderTeamsToFile, reserveStorage } from './uploads.queries';
import { deleteCleanupEntries } from '@/server/storage/blob-cleanup.queries';

/** The create parameters shared by the simple upload and the chunked session (spec 2 endpoint table). */
export type FileCreateParameters = {
  teamIds?: string;
  inheritParentTeams: boolean;
  validFrom?: Date;
  validTo?: Date;
  tags: string[];
  width?: number;
  height?: number;
  muted: boolean;
  metaData?: Record<string, unknown>;
  fileIdToReplace?: string;
  removeOldFile: boolean;
};

export type StoredFileBlob = {
  id: string;
  name: string;
  contentType: string;
  size: number;
  crcCheckSum: string;
  /** Keys whose crash-safety cleanup entries this row now owns (the blob, its thumbnail). */
  claimedKeys: readonly string[];
  thumbnailUploadedAt?: Date;
  /** The upload session this file completes: its reservation of the quota becomes the file's bytes. */
  sessionId?: string;
};

/**
 * The one way a stored blob becomes a file row (simple and chunked upload, a FILE_FROM_URL datasource's refresh,
 * which acts as the system: the file then has no creator). Runs inside the caller's
 * transaction: reserves the bytes against the customer's `storageSize` beside the open upload sessions (400
 * `resourceLimit.error.limitReached` with `{resource: 'STORAGE', used, limit}`), inserts the row,
 * registers the tags, assigns teams, replaces references to `fileIdToReplace`, takes over the
 * blob's cleanup entries (so the cleanup job leaves it alone from commit on) and writes the audit entry.
 */
export async function createFileFromBlob(
  tx: Executor,
  ctx: FileWriteContext,
  input: { folder: TargetFolder; blob: StoredFileBlob; params: FileCreateParameters; auditMessage?: string },
): Promise<void> {
  const { folder, blob, params } = input;
  const creator = ctx.actor.kind === 'user' ? ctx.actor : undefined;
  const customerId = folder.customerId;
  const quota = await reserveStorage(tx, customerId, blob.size, blob.sessionId);
  if (!quota.reserved) throw new LimitReachedError('STORAGE', quota.used, quota.limit);

  await insertFileRow(tx, {
    id: blob.id,
    customerId,
    fileFolderId: folder.id,
    folderPath: folder.path,
    name: blob.name,
    contentType: blob.contentType,
    size: blob.size,
    crcCheckSum: blob.crcCheckSum,
    width: params.width ?? null,
    height: params.height ?? null,
    creatorId: creator?.userId ?? null,
    creatorEmail: creator?.email ?? null,
    creatorName: creator?.name ?? null,
    validFrom: params.validFrom ?? null,
    validTo: params.validTo ?? null,
    tags: params.tags,
    metaData: params.metaData ?? null,
    muted: params.muted,
    lastPreviewUploadTime: blob.thumbnailUploadedAt ?? null,
  });
  // A folder that content plays from gains the file: the screens showing it hear manifestChanged.
  await announcePlaybackChange(tx, { customerId, fileIds: [blob.id] });
  await registerTags(tx, customerId, 'FILE', params.tags);
  if (params.inheritParentTeams) await copyFolderTeamsToFile(tx, { folderId: folder.id, fileId: blob.id });
  if (params.teamIds) await assignTeams(tx, ctx, 'file', blob.id, params.teamIds);
  await deleteCleanupEntries(tx, blob.claimedKeys);
  await auditChange(tx, ctx, {
    action: 'create',
    entityType: 'file',
    entityId: blob.id,
    entityName: blob.name,
    customerId,
    message: input.auditMessage ?? `File ${blob.name} uploaded (${blob.size} bytes)`,
    changes: { name: blob.name, size: blob.size, crcCheckSum: blob.crcCheckSum, fileFolderId: folder.id, tags: params.tags },
  });
  if (params.fileIdToReplace) {
    await replaceFileReference(tx, ctx, {
      fileIdToReplace: params.fileIdToReplace,
      sourceFileId: blob.id,
      removeOldFile: params.removeOldFile,
      teamAssignmentMode: 'MERGE',
    });
  }
}

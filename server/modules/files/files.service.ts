import { and, sql, type SQL } from 'drizzle-orm';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf } from '@/server/modules/audit-log';
import { quickFilterCondition } from '@/server/modules/quick-filters';
import { normalizeTags, registerTags } from '@/server/modules/tags';
import {
  modifyTeams,
  type TeamAccessList,
  type TeamModification,
  assertWritable,
  readOnlyExpression,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import { detachFileReferences, fileDeletionBlockers, type FileWriteContext } from './file-reference-registry';
import { deleteFileRows, findFileRow, updateFileRow, type FileChanges } from './files.queries';
import { announcePlaybackChange } from '@/server/playback/playback-changes';
import { fileResource } from './files.resource';
import type { FileEntity, FileUpdate } from './files.schemas';
import { files, type FileRow } from './files.table';
import { folderView } from './folder-views';

/** A single file read without `select`: every default field plus the `creator` object. */
export const FILE_DEFAULT_SELECT = '*,creator';
/** Lists without `sort` are ordered by name (then id, appended by the compiler). */
const DEFAULT_SORT = ['name,asc'];
/** The folders part of the summary view is unpaged up to this many. */
const SUMMARY_FOLDER_CAP = 1000;

type FileListInput = ListInput & TeamReadInput & { quickFilterId?: string };

export async function listFiles(ctx: ServiceContext, input: FileListInput) {
  const { quickFilterId, ...rest } = input;
  const team = teamListQuery(ctx, 'file', files.id, rest);
  const quick = quickFilterId ? await quickFilterCondition(ctx.db, ctx, quickFilterId, 'FILE') : undefined;
  const { sort, ...query } = team.query;

  return findPage<FileEntity>(ctx.db, {
    resource: fileResource,
    scope: ctx.scope,
    where: [team.where, quick],
    extraColumns: team.extraColumns,
    defaultSelect: FILE_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : DEFAULT_SORT,
    ...query,
  });
}

/**
 * One file as the caller sees it (404 when outside the scope or the caller's teams), with `readOnly`.
 * Other modules answer file objects through this (uploads, replace).
 */
export async function readFile<T extends object = FileEntity>(
  db: Executor,
  ctx: Pick<ServiceContext, 'actor' | 'scope'>,
  id: string,
  select?: string,
): Promise<T> {
  const page = await findPage<T>(db, {
    resource: fileResource,
    scope: ctx.scope,
    where: [sql`${files.id}::text = ${id}`, teamAccessCondition(ctx, 'file', files.id)],
    extraColumns: { readOnly: readOnlyExpression(ctx, 'file', files.id) },
    select,
    defaultSelect: FILE_DEFAULT_SELECT,
    size: '1',
  });
  const file = page.content[0];
  if (!file) throw new NotFoundError('file', id);

  return file;
}

export function getFile(ctx: ServiceContext, input: { id: string; select?: string }) {
  return readFile(ctx.db, ctx, input.id, input.select);
}

type SummaryInput = {
  page?: string;
  size?: string;
  sort: string[];
  select?: string;
  folderSearch?: string;
  fileSearch?: string;
  folderSelect?: string;
  quickFilterId?: string;
};

/** GET /api/v2/file/view/summary: the folders matching `folderSearch` and a page of files. */
export async function fileSummary(ctx: ServiceContext, input: SummaryInput) {
  const folders = await folderView().folders(ctx, { search: input.folderSearch, select: input.folderSelect, size: SUMMARY_FOLDER_CAP });
  const filePage = await listFiles(ctx, {
    page: input.page,
    size: input.size,
    sort: input.sort,
    search: input.fileSearch,
    select: input.select,
    quickFilterId: input.quickFilterId,
  });

  return { fileFolders: folders.content, fileFoldersTruncated: folders.totalElements > SUMMARY_FOLDER_CAP, files: filePage };
}

/** PUT /api/file/{fileId}: null or omitted fields keep their value. */
export async function updateFile(ctx: ServiceContext, input: { id: string; body: FileUpdate }) {
  return withTransaction(ctx.db, async (tx) => {
    const before = await writableFile(tx, ctx, input.id);
    const { body } = input;
    const changes: FileChanges = {};
    if (body.name != null && body.name !== before.name) changes.name = body.name;
    if (body.validFrom != null) changes.validFrom = new Date(body.validFrom);
    if (body.validTo != null) changes.validTo = new Date(body.validTo);
    if (body.tags != null) changes.tags = normalizeTags(body.tags);
    if (body.metaData != null) changes.metaData = body.metaData;
    if (body.muted != null) changes.muted = body.muted;
    assertValidity(changes.validFrom ?? before.validFrom, changes.validTo ?? before.validTo);

    await updateFileRow(tx, ctx.scope, before.id, changes);
    await announcePlaybackChange(tx, { customerId: before.customerId, fileIds: [before.id] });
    if (changes.tags) await registerTags(tx, before.customerId, 'FILE', changes.tags);
    await auditFile(tx, ctx, before, 'update', `File '${before.name}' updated`, {
      ...body,
      ...(changes.name ? { name: { from: before.name, to: changes.name } } : {}),
    });

    return readFile(tx, ctx, before.id);
  });
}

/** POST /api/file/rename. */
export async function renameFile(ctx: ServiceContext, input: { id: string; newName: string }) {
  return withTransaction(ctx.db, async (tx) => {
    const before = await writableFile(tx, ctx, input.id);
    await updateFileRow(tx, ctx.scope, before.id, { name: input.newName });
    await announcePlaybackChange(tx, { customerId: before.customerId, fileIds: [before.id] });
    await auditFile(tx, ctx, before, 'rename', `File '${before.name}' renamed to '${input.newName}'`, {
      name: { from: before.name, to: input.newName },
    });

    return readFile(tx, ctx, before.id);
  });
}

/** DELETE /api/file/{fileId}: blocked (409) while a reference kind says so. */
export async function deleteFile(ctx: ServiceContext, input: { id: string; removeFromPlaylists: boolean }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const file = await writableFile(tx, ctx, input.id);
    await deleteCheckedFiles(tx, ctx, [file], input.removeFromPlaylists);
  });
}

/**
 * Deletes files the caller may write, after the reference registry's block check; their references are
 * detached first. Shared by the delete endpoint and `replaceFileReference` (`removeOldFile`).
 */
export async function deleteCheckedFiles(
  tx: Executor,
  ctx: FileWriteContext,
  rows: readonly FileRow[],
  removeFromPlaylists: boolean,
): Promise<void> {
  const fileIds = rows.map((r) => r.id);
  const blockers = await fileDeletionBlockers(tx, { fileIds, removeFromPlaylists });
  if (blockers.length > 0) {
    const uses = blockers.map((b) => `${b.count} ${b.kind}`).join(', ');
    throw new ConflictError('file.error.inUse', `The file is in use (${uses})`, { usage: blockers });
  }
  for (const customerId of new Set(rows.map((r) => r.customerId))) {
    await announcePlaybackChange(tx, { customerId, fileIds: rows.filter((r) => r.customerId === customerId).map((r) => r.id) });
  }
  await detachFileReferences(tx, ctx, { fileIds, removeFromPlaylists });
  await deleteFileRows(tx, ctx.scope, fileIds);
  for (const row of rows) {
    await auditFile(tx, ctx, row, 'delete', `File '${row.name}' deleted`, {
      removeFromPlaylists,
      size: row.size,
      fileFolderId: row.fileFolderId,
    });
  }
}

/** POST /api/file/updateTeamAssignments. */
export async function updateFileTeams(ctx: ServiceContext, input: { fileId: string; body: TeamModification }): Promise<TeamAccessList> {
  return withTransaction(ctx.db, (tx) => modifyTeams(tx, ctx, 'file', input.fileId, input.body));
}

/** A file the caller may change: 404 when invisible, 403 `team.error.readOnly` through read-only teams. */
export async function writableFile(tx: Executor, ctx: FileWriteContext, id: string): Promise<FileRow> {
  await assertWritable(tx, ctx, 'file', id);
  const row = await findFileRow(tx, ctx.scope, id);
  if (!row) throw new NotFoundError('file', id);

  return row;
}

/** The SQL condition "the caller may write this file row" (scope, team access, not read-only). */
export function writableFilesCondition(ctx: ServiceContext): SQL {
  const access = teamAccessCondition(ctx, 'file', files.id);

  return and(scopeCondition(ctx.scope, files.customerId), access, sql`not ${readOnlyExpression(ctx, 'file', files.id)}`)!;
}

export function assertValidity(validFrom: Date | null | undefined, validTo: Date | null | undefined): void {
  if (validFrom && validTo && validFrom.getTime() > validTo.getTime()) {
    throw new ValidationError('file.error.invalidValidity', 'validFrom must not be after validTo', {
      validFrom: validFrom.getTime(),
      validTo: validTo.getTime(),
    });
  }
}

export const auditFile = auditOf('file', (file: Pick<FileRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: file.id,
  entityName: file.name,
  customerId: file.customerId,
}));

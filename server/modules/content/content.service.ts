import { and, eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditOf } from '@/server/modules/audit-log';
import { assertContentGroupVisible, contentGroupVisible, findWritableContentGroup } from './content-folders';
import { quickFilterCondition } from '@/server/modules/quick-filters';
import { normalizeTags, registerTags } from '@/server/modules/tags';
import { assignTeams, readOnlyExpression, teamAccessCondition, teamListQuery, type TeamReadInput } from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import { playlistReferences, slideReferences, type DataReferences } from './content-data.rules';
import type { PlaylistData, SlideData } from './content-data.schemas';
import { checkReferences } from './content-references';
import { CONTENT_DEFAULT_SELECT, CONTENT_SINGLE_SELECT, deviceContentResource } from './content.resource';
import { ONE_PAGE, type DeviceContent } from './content.schemas';
import { deviceContents, type DeviceContentRow } from './content.table';
import {
  findContentForWrite,
  findEmbedders,
  insertDeviceContent,
  updateDeviceContent,
  writeReferences,
  deleteDeviceContent,
} from './content.queries';
import { announcePlaybackChange } from '@/server/playback/playback-changes';

/** The two write paths of spec 2: `/api/content` (slides, interactive content) and `/api/simpleLoop` (playlists). */
export type ContentKind = 'content' | 'simpleLoop';

const auditContent = auditOf('deviceContent', (row: Pick<DeviceContentRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));

const KIND_WORDS: Record<ContentKind, string> = { content: 'Content', simpleLoop: 'Playlist' };

function kindWord(row: Pick<DeviceContentRow, 'deviceContentType' | 'structureType'>): string {
  if (row.deviceContentType === 'simpleLoop') return KIND_WORDS.simpleLoop;

  return row.structureType === 'COMPLEX' ? 'Interactive content' : 'Slide';
}

/** Who saved: copied onto the row so it outlives the user (`lastSavedBy`). */
function savedBy(ctx: Pick<ServiceContext, 'actor'>) {
  return { lastSavedById: ctx.actor.userId, lastSavedByEmail: ctx.actor.email, lastSavedByName: ctx.actor.name };
}

export function contentAccess(ctx: Pick<ServiceContext, 'actor'>): SQL | undefined {
  return teamAccessCondition(ctx, 'deviceContent', deviceContents.id);
}

function lockedError(row: Pick<DeviceContentRow, 'id' | 'name'>): ConflictError {
  return new ConflictError('content.error.locked', `'${row.name}' is locked; an approver unlocks it first`, { id: row.id });
}

/**
 * An item of `kind` the caller changes: 404 when it is not in the scope, not visible to the caller's teams
 * or of the other kind; 403 `team.error.readOnly` through read-only teams; 409 `content.error.locked`
 * unless `allowLocked` (locking and unlocking). Row-locked until the transaction ends.
 */
async function writableContent(
  tx: Executor,
  ctx: ServiceContext,
  kind: ContentKind,
  id: string,
  options: { allowLocked?: boolean } = {},
): Promise<DeviceContentRow> {
  const found = await findContentForWrite(tx, {
    where: and(
      uuidEquals(deviceContents.id, id),
      eq(deviceContents.deviceContentType, kind),
      scopeCondition(ctx.scope, deviceContents.customerId),
    ),
    visible: contentAccess(ctx),
    readOnly: readOnlyExpression(ctx, 'deviceContent', deviceContents.id),
    lock: true,
  });
  if (!found || !found.visible) throw new NotFoundError(kind, id);
  if (found.readOnly)
    throw new ForbiddenError('Your teams give read-only access to this item', 'team.error.readOnly', { resourceType: 'deviceContent', id });
  if (found.row.locked && !options.allowLocked) throw lockedError(found.row);

  return found.row;
}

type ListDeviceContentInput = ListInput &
  TeamReadInput & {
    includeContents?: boolean;
    includeLoops?: boolean;
    includeSchedules?: boolean;
    contentGroupId?: string;
    quickFilterId?: string;
  };

/** GET /api/v2/deviceContent: slides, interactive content and playlists in one paged statement. */
export async function listDeviceContent(ctx: ServiceContext, input: ListDeviceContentInput) {
  const { includeContents, includeLoops, includeSchedules: _schedules, contentGroupId, quickFilterId, ...rest } = input;
  const team = teamListQuery(ctx, 'deviceContent', deviceContents.id, rest);
  const types = [...(includeContents === false ? [] : ['content']), ...(includeLoops === false ? [] : ['simpleLoop'])];
  const kinds =
    types.length === 2 ? undefined : types.length === 1 ? eq(deviceContents.deviceContentType, types[0] as ContentKind) : sql`false`;
  // The folder's visibility rides on the list statement (no read of the folder first); only an empty page
  // asks whether the folder is visible: one the caller cannot see is a 404, never an empty list.
  const folder = contentGroupId
    ? and(eq(deviceContents.contentGroupId, contentGroupId), contentGroupVisible(ctx, contentGroupId))
    : undefined;
  const quick = quickFilterId
    ? await quickFilterCondition(ctx.db, ctx, quickFilterId, 'CONTENT').catch(async (error: unknown) => {
        // An invisible folder is a 404 before anything is said about the quick filter (a 400 would confirm it exists).
        if (contentGroupId) await assertContentGroupVisible(ctx.db, ctx, contentGroupId);
        throw error;
      })
    : undefined;
  const { sort, ...query } = team.query;

  const page = await findPage<DeviceContent>(ctx.db, {
    resource: deviceContentResource,
    scope: ctx.scope,
    where: [team.where, kinds, folder, quick],
    extraColumns: team.extraColumns,
    defaultSelect: CONTENT_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
  if (contentGroupId && page.content.length === 0) await assertContentGroupVisible(ctx.db, ctx, contentGroupId);

  return page;
}

/** One item as the caller sees it, with its document unless `select` says otherwise (404 when invisible). */
export async function readDeviceContent(
  db: Executor,
  ctx: Pick<ServiceContext, 'actor' | 'scope'>,
  id: string,
  select?: string,
): Promise<DeviceContent> {
  const page = await findPage<DeviceContent>(db, {
    resource: deviceContentResource,
    scope: ctx.scope,
    where: [uuidEquals(deviceContents.id, id), contentAccess(ctx)],
    extraColumns: { readOnly: readOnlyExpression(ctx, 'deviceContent', deviceContents.id) },
    select,
    defaultSelect: CONTENT_SINGLE_SELECT,
    size: '1',
  });
  const item = page.content[0];
  if (!item) throw new NotFoundError('deviceContent', id);

  return item;
}

export function getDeviceContent(ctx: ServiceContext, id: string, select?: string) {
  return readDeviceContent(ctx.db, ctx, id, select);
}

/** The references of a document, by what the item is. */
function referencesOf(row: Pick<DeviceContentRow, 'deviceContentType' | 'structureType'>, data: unknown): DataReferences {
  return row.deviceContentType === 'simpleLoop'
    ? playlistReferences(data as PlaylistData)
    : slideReferences(data as SlideData, row.structureType === 'COMPLEX' ? 'COMPLEX' : 'SLIDE');
}

/** Checks a document's references (tenant, kind, no cycle) and records them for the item. */
async function saveReferences(
  tx: Executor,
  row: Pick<DeviceContentRow, 'id' | 'customerId' | 'deviceContentType' | 'structureType'>,
  data: unknown,
): Promise<void> {
  const refs = referencesOf(row, data);
  await checkReferences(tx, { customerId: row.customerId, selfId: row.id, refs });
  await writeReferences(tx, {
    customerId: row.customerId,
    contentId: row.id,
    refs: {
      file: refs.files.map((r) => r.id),
      fileFolder: refs.fileFolders.map((r) => r.id),
      content: refs.contents.map((r) => r.id),
      datasource: refs.datasources.map((r) => r.id),
    },
  });
}

type CreateInput = {
  contentGroupId?: string;
  teamIds?: string;
  name: string;
  comment?: string;
  tags?: string[];
  data: unknown;
} & (
  | { deviceContentType: 'content'; structureType: 'SLIDE' | 'COMPLEX'; version?: string }
  | { deviceContentType: 'simpleLoop'; simpleLoopType: 'NORMAL' | 'EINK'; version: '2.0' }
);

/** POST /api/content and /api/simpleLoop (and every copy): a new item in a content folder (the root when absent). */
export async function createDeviceContent(ctx: ServiceContext, input: CreateInput, tx?: Executor): Promise<DeviceContent> {
  const work = async (db: Executor) => {
    const customerId = targetCustomerId(ctx.scope, ctx.actor);
    const folder = await findWritableContentGroup(db, ctx, { customerId, id: input.contentGroupId, creatingIn: true });
    const id = uuidv7();
    const row = await insertDeviceContent(db, {
      id,
      customerId: folder.customerId,
      deviceContentType: input.deviceContentType,
      structureType: input.deviceContentType === 'content' ? input.structureType : null,
      simpleLoopType: input.deviceContentType === 'simpleLoop' ? input.simpleLoopType : null,
      version: input.deviceContentType === 'simpleLoop' ? '2.0' : input.version || '1.0',
      contentGroupId: folder.id,
      groupPath: folder.path,
      name: input.name,
      comment: input.comment || null,
      tags: input.tags ?? [],
      data: input.data,
      ...savedBy(ctx),
    });
    await saveReferences(db, row, input.data);
    if (row.tags.length > 0) await registerTags(db, row.customerId, 'CONTENT', row.tags);
    if (input.teamIds) await assignTeams(db, ctx, 'deviceContent', id, input.teamIds);
    await auditContent(db, ctx, row, 'create', `${kindWord(row)} '${row.name}' created`, {
      contentGroupId: folder.id,
      teamIds: input.teamIds,
    });

    return readDeviceContent(db, ctx, id);
  };

  return tx ? work(tx) : withTransaction(ctx.db, work);
}

type UpdateInput = { name?: string; comment?: string; resetComment?: boolean; data?: unknown };

/** PUT /api/{content or simpleLoop}/{id}: name, comment (resetComment clears it) and the document. */
export async function updateDeviceContentItem(
  ctx: ServiceContext,
  kind: ContentKind,
  id: string,
  input: UpdateInput,
  autoSave: boolean,
): Promise<DeviceContent> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableContent(tx, ctx, kind, id);
    if (input.data !== undefined && row.structureType === 'SLIDE' && (input.data as SlideData).pages.length !== 1) {
      throw new ValidationError(INVALID_COMBINATION, ONE_PAGE, { issues: [{ path: 'data', message: ONE_PAGE }] });
    }
    const comment = input.resetComment ? null : input.comment ? input.comment : undefined;
    await updateDeviceContent(tx, row.customerId, row.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(comment === undefined ? {} : { comment }),
      ...(input.data === undefined ? {} : { data: input.data }),
      lastSaved: new Date(),
      ...savedBy(ctx),
    });
    if (input.data !== undefined || input.name !== undefined)
      await announcePlaybackChange(tx, { customerId: row.customerId, contentIds: [row.id] });
    if (input.data !== undefined) await saveReferences(tx, row, input.data);
    const changed = [input.name !== undefined && 'name', comment !== undefined && 'comment', input.data !== undefined && 'data'].filter(
      Boolean,
    );
    await auditContent(
      tx,
      ctx,
      { ...row, name: input.name ?? row.name },
      autoSave ? 'autoSave' : 'update',
      `${kindWord(row)} '${input.name ?? row.name}' ${autoSave ? 'auto-saved' : 'saved'}`,
      {
        fields: changed,
        ...(input.name !== undefined && input.name !== row.name ? { name: { from: row.name, to: input.name } } : {}),
      },
    );

    return readDeviceContent(tx, ctx, row.id);
  });
}

/** POST /api/{content or simpleLoop}/lock/{id}/{true|false} (APPROVER). Idempotent. */
export async function setContentLocked(ctx: ServiceContext, kind: ContentKind, id: string, locked: boolean): Promise<DeviceContent> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableContent(tx, ctx, kind, id, { allowLocked: true });
    if (row.locked !== locked) {
      await updateDeviceContent(tx, row.customerId, row.id, { locked });
      await auditContent(tx, ctx, row, locked ? 'lock' : 'unlock', `${kindWord(row)} '${row.name}' ${locked ? 'locked' : 'unlocked'}`, {
        locked,
      });
    }

    return readDeviceContent(tx, ctx, row.id);
  });
}

/** POST /api/{content or simpleLoop}/duplicate/{id}: a copy (document, comment, tags) beside the original. */
export async function duplicateDeviceContent(ctx: ServiceContext, kind: ContentKind, id: string, name: string): Promise<DeviceContent> {
  return withTransaction(ctx.db, async (tx) => {
    // Reading a locked item to copy it changes nothing: allowed.
    const row = await writableContent(tx, ctx, kind, id, { allowLocked: true });
    const scoped = { ...ctx, scope: { kind: 'customer' as const, customerId: row.customerId, explicit: true } };
    const common = { contentGroupId: row.contentGroupId, name, comment: row.comment ?? undefined, tags: row.tags, data: row.data };

    return createDeviceContent(
      scoped,
      row.deviceContentType === 'simpleLoop'
        ? { ...common, deviceContentType: 'simpleLoop', simpleLoopType: row.simpleLoopType ?? 'NORMAL', version: '2.0' }
        : { ...common, deviceContentType: 'content', structureType: row.structureType ?? 'SLIDE', version: row.version ?? undefined },
      tx,
    );
  });
}

/** DELETE /api/{content or simpleLoop}/{id}: refused while locked or embedded in other content (409). */
export async function deleteDeviceContentItem(ctx: ServiceContext, kind: ContentKind, id: string): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableContent(tx, ctx, kind, id);
    const embedders = await findEmbedders(tx, row.customerId, [row.id], sql`${deviceContents.id} <> ${row.id}`, 20);
    if (embedders.length > 0) {
      throw new ConflictError(
        'content.error.inUse',
        `'${row.name}' is embedded in ${embedders.map((e) => `'${e.name}'`).join(', ')}; remove it there first`,
        { usedBy: embedders },
      );
    }
    await announcePlaybackChange(tx, { customerId: row.customerId, contentIds: [row.id] });
    await deleteDeviceContent(tx, row.customerId, row.id);
    await auditContent(tx, ctx, row, 'delete', `${kindWord(row)} '${row.name}' deleted`);
  });
}

/** POST /api/deviceContent/{id}/setTags: replaces the item's tags (either kind). */
export async function setContentTags(ctx: ServiceContext, id: string, tags: string[]): Promise<DeviceContent> {
  return withTransaction(ctx.db, async (tx) => {
    const found = await findContentForWrite(tx, {
      where: and(uuidEquals(deviceContents.id, id), scopeCondition(ctx.scope, deviceContents.customerId)),
      visible: contentAccess(ctx),
      readOnly: readOnlyExpression(ctx, 'deviceContent', deviceContents.id),
      lock: true,
    });
    if (!found || !found.visible) throw new NotFoundError('deviceContent', id);
    const row = await writableContent(tx, ctx, found.row.deviceContentType, id);
    const normalized = normalizeTags(tags);
    await updateDeviceContent(tx, row.customerId, row.id, { tags: normalized });
    await registerTags(tx, row.customerId, 'CONTENT', normalized);
    await auditContent(tx, ctx, row, 'setTags', `Tags of '${row.name}' set: ${normalized.join(', ') || '(none)'}`, {
      tags: { from: row.tags, to: normalized },
    });

    return readDeviceContent(tx, ctx, row.id);
  });
}

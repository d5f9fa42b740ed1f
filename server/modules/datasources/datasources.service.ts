import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Actor } from '@/server/context/actor';
import { hasRole } from '@/server/context/roles';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { FILTERED_FOLDER } from '@/server/modules/file-folders';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import { normalizeTags, registerTags } from '@/server/modules/tags';
import {
  assertWritable,
  assignTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import { auditedFields, redacted } from './datasource-audit';
import { kindOf } from './datasource-kind';
import { nextRefreshAfter } from './datasource-schedule';
import * as q from './datasources.queries';
import { datasourceResource } from './datasources.resource';
import {
  DEFAULT_REFRESH_SECONDS,
  HIDDEN_HEADER_VALUE,
  externalTypes,
  kindIssues,
  systemTypes,
  type Datasource,
  type DatasourceCreate,
  type DatasourceKind,
  type DatasourceUpdate,
  type DatasourceUsageList,
} from './datasources.schemas';
import { datasources, type DatasourceRow } from './datasources.table';

export const ENTITY = 'datasource';
export const auditDatasource = auditOf(ENTITY, (row: Pick<DatasourceRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
  datasource: { id: row.id, name: row.name },
}));
const BY_NAME = ['name,asc'];

/** GET /api/v2/datasource: paged, searchable and sortable (by name unless sorted), team read parameters. */
export async function listDatasources(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, ENTITY, datasources.id, input);
  const { sort, ...query } = team.query;

  const page = await findPage<Datasource>(ctx.db, {
    resource: datasourceResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns ?? readOnlyColumn(ctx, ENTITY, datasources.id, { select: query.select }),
    sort: sort.length > 0 ? sort : BY_NAME,
    ...query,
  });

  return { ...page, content: page.content.map((d) => asReadBy(ctx, d)) };
}

/** GET /api/v2/datasource/{id}: one datasource the caller sees (404 otherwise), honouring `select`. */
export async function getDatasource(ctx: ServiceContext, input: { id: string; select?: string }): Promise<Datasource> {
  const found = await readDatasource(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true });
  if (!found) throw new NotFoundError(ENTITY, input.id);

  return asReadBy(ctx, found);
}

/**
 * A datasource as the caller may read it: request header values often carry credentials (an API key, a bearer
 * token), so only those who may change them (EDITOR and above) read them; lower roles see which headers are sent.
 */
function asReadBy(ctx: ServiceContext, datasource: Datasource): Datasource {
  const headers = datasource.requestSettings?.headers;
  if (!headers || hasRole(ctx.actor.role, 'EDITOR')) return datasource;

  return {
    ...datasource,
    requestSettings: {
      ...datasource.requestSettings!,
      headers: Object.fromEntries(Object.keys(headers).map((h) => [h, HIDDEN_HEADER_VALUE])),
    },
  };
}

/**
 * GET /api/datasource/usageDetails: the content using the datasources `search` finds (all the caller sees when
 * absent), with the widgets that show them. At most 1 000 datasources are looked at, by name.
 */
export async function datasourceUsageDetails(ctx: ServiceContext, input: { search?: string }): Promise<DatasourceUsageList> {
  const page = await findPage<{
    id: string;
    name: string;
    usageDetails?: Array<Omit<DatasourceUsageList['content'][number], 'datasourceId' | 'datasourceName'>>;
  }>(ctx.db, {
    resource: datasourceResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, ENTITY, datasources.id)],
    select: 'id,name,usageDetails',
    search: input.search,
    sort: BY_NAME,
    size: String(MAX_PAGE_SIZE),
  });

  return {
    content: page.content.flatMap((d) => (d.usageDetails ?? []).map((u) => ({ datasourceId: d.id, datasourceName: d.name, ...u }))),
  };
}

/** Refuses a kind this service cannot fetch or compute (spec 5 §2: 400 naming the type). */
function assertSupported(kind: Pick<DatasourceKind, 'sourceType' | 'type' | 'systemDatasourceType'>): void {
  const refuse = (type: string) => {
    throw new ValidationError('datasource.error.unsupportedType', `Datasources of type ${type} are not supported`, { type });
  };
  if (kind.sourceType === 'EXTERNAL' && kind.type && !(externalTypes as readonly string[]).includes(kind.type)) refuse(kind.type);
  if (kind.sourceType === 'SYSTEM' && kind.systemDatasourceType && !(systemTypes as readonly string[]).includes(kind.systemDatasourceType))
    refuse(kind.systemDatasourceType);
}

function assertKind(kind: DatasourceKind): void {
  assertSupported(kind);
  const issues = kindIssues(kind).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  if (issues.length > 0)
    throw new ValidationError(INVALID_COMBINATION, `Invalid value '${issues[0]!.path}': ${issues[0]!.message}`, { target: 'json', issues });
}

/** `global` is the super admins' (spec 3). */
function assertGlobalAllowed(ctx: ServiceContext, global: boolean | undefined): void {
  if (global && ctx.actor.role !== 'ADMIN')
    throw new ForbiddenError('Only a super admin makes a datasource global', 'datasource.error.globalAdminOnly');
}

/** The first refresh of an external datasource is due at once; nothing is due for the others or while deactivated. */
function firstRefreshAt(kind: Pick<DatasourceRow, 'sourceType' | 'deactivated'>, now: Date): Date | null {
  return kind.sourceType === 'EXTERNAL' && !kind.deactivated ? now : null;
}

/** The checks a create and a "Test" share: supported kind, fields that fit it, `global` for ADMIN, the referenced rows the customer's own. */
export async function assertCreatable(ctx: ServiceContext, body: DatasourceCreate): Promise<number> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  await assertReferencesOwned(ctx.db, customerId, body);
  assertKind(body);
  assertGlobalAllowed(ctx, body.global);

  return customerId;
}

/**
 * POST /api/datasource: names unique per customer (409), the DATASOURCE resource limit, the referenced quick
 * filter and file folder in the customer (404), optional `teamIds`. An external datasource is refreshed at once.
 */
export async function createDatasource(ctx: ServiceContext, input: { body: DatasourceCreate; teamIds?: string }): Promise<Datasource> {
  const { body } = input;
  const customerId = await assertCreatable(ctx, body);
  const now = new Date();

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'DATASOURCE');
      const external = body.sourceType === 'EXTERNAL';
      const tags = normalizeTags(body.tags ?? []);
      const row = await q.insertDatasource(tx, {
        id: uuidv7(),
        customerId,
        name: body.name,
        comment: body.comment ?? '',
        sourceType: body.sourceType,
        structureType: body.structureType,
        type: body.type ?? null,
        systemDatasourceType: body.systemDatasourceType ?? null,
        global: body.global ?? false,
        deactivated: body.deactivated ?? false,
        editableByDisplay: body.editableByDisplay ?? false,
        remoteUrl: body.remoteUrl ?? null,
        requestSettings: body.requestSettings ?? null,
        refreshFrequency: external ? (body.refreshFrequency ?? DEFAULT_REFRESH_SECONDS) : null,
        cronExpressionParameters: body.cronExpressionParameters ?? null,
        timeZone: body.timeZone ?? null,
        dateFormat: body.dateFormat ?? null,
        timeFormat: body.timeFormat ?? null,
        keepLastXDays: body.keepLastXDays ?? null,
        keepLastXItem: body.keepLastXItem ?? null,
        quickFilterId: body.quickFilterId ?? null,
        maxElementCount: body.maxElementCount ?? null,
        fileFolderId: body.fileFolderId ?? null,
        capParameters: body.capParameters ?? null,
        webScraperParameters: body.webScraperParameters ?? null,
        tags,
        nextRefreshAt: firstRefreshAt({ sourceType: body.sourceType, deactivated: body.deactivated ?? false }, now),
      });
      await registerTags(tx, customerId, 'DATASOURCE', tags);
      if (parseTeamIdsParam(input.teamIds).length > 0) await assignTeams(tx, ctx, ENTITY, row.id, input.teamIds);
      await auditDatasource(tx, ctx, row, 'create', `Datasource '${row.name}' created`, auditedFields(row));

      return (await readDatasource(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

const UPDATABLE = [
  'name',
  'comment',
  'deactivated',
  'editableByDisplay',
  'global',
  'remoteUrl',
  'requestSettings',
  'refreshFrequency',
  'cronExpressionParameters',
  'timeZone',
  'dateFormat',
  'timeFormat',
  'keepLastXDays',
  'keepLastXItem',
  'quickFilterId',
  'maxElementCount',
  'fileFolderId',
  'capParameters',
  'webScraperParameters',
  'tags',
] as const;

/**
 * PUT /api/datasource/{id}: partial (spec 1 rule 2); the fields afterwards must fit the datasource's kinds.
 * `deactivated: false` on a deactivated datasource starts its error count again and refreshes it at once; a new
 * address (its validators forgotten), request or file folder refreshes at once, a new frequency or schedule moves the
 * next refresh.
 */
export async function updateDatasource(ctx: ServiceContext, input: { id: string; body: DatasourceUpdate }): Promise<Datasource> {
  const { body } = input;
  assertGlobalAllowed(ctx, body.global);

  return uniqueName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableDatasource(tx, ctx, input.id);
      const values: Partial<typeof datasources.$inferInsert> = {};
      for (const key of UPDATABLE) if (body[key] !== undefined) (values as Record<string, unknown>)[key] = body[key];
      if (values.tags) {
        values.tags = normalizeTags(values.tags);
        await registerTags(tx, row.customerId, 'DATASOURCE', values.tags);
      }
      const after = { ...row, ...values };
      await assertReferencesOwned(tx, row.customerId, values);
      assertKind(kindOf(after));
      const changes = diffFields(row, values);
      if (Object.keys(changes).length === 0) return (await readDatasource(tx, ctx, row.id, { visibleOnly: false }))!;
      const reactivated = row.deactivated && after.deactivated === false;
      if (reactivated) Object.assign(values, { errorCounter: 0, lastError: null });
      if (after.sourceType === 'EXTERNAL') {
        const rescheduled = ['remoteUrl', 'requestSettings', 'refreshFrequency', 'cronExpressionParameters', 'deactivated'].some(
          (k) => k in changes,
        );
        const refetched = ['remoteUrl', 'requestSettings', 'fileFolderId'].some((k) => k in changes);
        if (after.deactivated) values.nextRefreshAt = null;
        else if (reactivated || refetched) values.nextRefreshAt = new Date();
        else if (rescheduled) values.nextRefreshAt = nextRefreshAfter(after, Date.now());
        // What another address told about its document says nothing about the new one's.
        if ('remoteUrl' in changes) await q.updateValidators(tx, row.id, null);
      }
      await q.updateDatasource(tx, row, values);
      const name = values.name ?? row.name;
      await auditDatasource(
        tx,
        ctx,
        { ...row, name },
        'update',
        `Datasource '${name}' updated: ${Object.keys(changes).join(', ')}`,
        redacted(changes),
      );

      return (await readDatasource(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/**
 * DELETE /api/datasource/{id}: refused (409 `datasource.error.inUse`, naming the content) while content uses it.
 * Content saving a reference locks the datasource row (`for key share`), so the check below, made with the row
 * locked, cannot miss a reference being written.
 */
export async function deleteDatasource(ctx: ServiceContext, input: { id: string }): Promise<void> {
  try {
    await withTransaction(ctx.db, async (tx) => {
      const row = await writableDatasource(tx, ctx, input.id);
      const using = await q.contentUsing(tx, row, 10);
      if (using.length > 0)
        throw new ConflictError(
          'datasource.error.inUse',
          `Content uses the datasource: ${using.map((c) => `'${c.name}'`).join(', ')}. Remove its widgets first`,
          { id: row.id, content: using },
        );
      await q.deleteDatasource(tx, row);
      await auditDatasource(tx, ctx, row, 'delete', `Datasource '${row.name}' deleted`);
    });
  } catch (err) {
    if (isForeignKeyViolation(err))
      throw new ConflictError('datasource.error.inUse', 'Something still uses the datasource', { id: input.id });
    throw err;
  }
}

/**
 * The quick filter (a FILE one) and the file folder a datasource names must be the customer's own (404 otherwise, as
 * for every id of another tenant: DECISIONS §3); the folder a stored one (409 `fileFolder.error.filtered`).
 */
async function assertReferencesOwned(
  tx: Executor,
  customerId: number,
  values: { quickFilterId?: string | null; fileFolderId?: string | null },
) {
  if (values.quickFilterId) {
    const filter = await q.findQuickFilter(tx, customerId, values.quickFilterId);
    if (!filter) throw new NotFoundError('quickFilter', values.quickFilterId);
    if (filter.filteredEntityType !== 'FILE')
      throw new ValidationError(
        'quickFilter.error.typeMismatch',
        `A FILES datasource takes a FILE quick filter, not a ${filter.filteredEntityType} one`,
        {
          quickFilterId: values.quickFilterId,
        },
      );
  }
  if (values.fileFolderId) {
    const folder = await q.findFileFolder(tx, customerId, values.fileFolderId);
    if (!folder) throw new NotFoundError('fileFolder', values.fileFolderId);
    // As for an upload into it (file-folders' resolveTargetFolder): a filtered folder holds no files of its own.
    if (folder.fileFolderType === FILTERED_FOLDER)
      throw new ConflictError(
        'fileFolder.error.filtered',
        'A filtered folder shows the files of its quick filter and holds none of its own',
        {
          id: folder.id,
        },
      );
  }
}

export async function readDatasource(db: Executor, ctx: ServiceContext, id: string, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<Datasource>(db, {
    resource: datasourceResource,
    scope: ctx.scope,
    where: [eq(datasources.id, id), options.visibleOnly ? teamAccessCondition(ctx, ENTITY, datasources.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, ENTITY, datasources.id, { select: options.select }),
    size: '1',
  });

  return page.content[0];
}

/** Who the single-row checks need: any actor (a user, or a webhook API key acting through its teams) and its scope. */
type TeamCaller = Pick<ServiceContext<Actor>, 'actor' | 'scope'>;

/** The row (locked) when the caller sees it: 404 otherwise. */
export async function visibleDatasource(tx: Executor, ctx: TeamCaller, id: string): Promise<DatasourceRow> {
  const row = await q.lockDatasource(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  const visible = teamAccessCondition(ctx, ENTITY, datasources.id);
  if (visible && !(await q.isVisible(tx, row.id, visible))) throw new NotFoundError(ENTITY, id);

  return row;
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 through read-only teams. */
export async function writableDatasource(tx: Executor, ctx: TeamCaller, id: string): Promise<DatasourceRow> {
  const row = await q.lockDatasource(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, row.id);

  return row;
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'datasource_customer_name_key'))
      throw new ConflictError('datasource.error.nameExists', `A datasource named '${name}' already exists`, { name });
    throw err;
  }
}

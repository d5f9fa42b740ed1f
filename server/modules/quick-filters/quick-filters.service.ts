import enLabels from '@/messages/en/labels.json';
import { eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import {
  assignTeams,
  parseTeamIdsParam,
  assertWritable,
  readOnlyExpression,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput, selectsField } from '@/server/query';
import { validateCriteria } from './quick-filter-criteria';
import { quickFilterDeletionBlockers, usedByChannelsSql } from './quick-filter-usages';
import * as q from './quick-filters.queries';
import { quickFilterResource } from './quick-filters.resource';
import type { Criteria, QuickFilter, QuickFilterCreate, QuickFilterUpdate } from './quick-filters.schemas';
import { quickFilters, type QuickFilterRow } from './quick-filters.table';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type QuickFilterListInput = ListInput & TeamReadInput;

/** GET /api/v2/quickFilter: paged, with the team read parameters. */
export function listQuickFilters(ctx: ServiceContext, input: QuickFilterListInput) {
  const team = teamListQuery(ctx, 'quickFilter', quickFilters.id, input);

  return findPage<QuickFilter>(ctx.db, {
    resource: quickFilterResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: readOnlyColumn(ctx, team.query.select, input.includeReadOnlyInfo === true),
    ...team.query,
  });
}

/** GET /api/quickFilter/{id}: one filter the caller can see (404 otherwise). */
export async function getQuickFilter(ctx: ServiceContext, input: { id: string; select?: string }) {
  const found = UUID.test(input.id) ? await readQuickFilter(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true }) : undefined;
  if (!found) throw new NotFoundError('quickFilter', input.id);

  return found;
}

/** POST /api/quickFilter/: names unique per customer; counts against `QUICK_FILTER`; optional `teamIds`. */
export async function createQuickFilter(ctx: ServiceContext, input: { body: QuickFilterCreate; teamIds?: string }) {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const criteria = validateCriteria(body.filteredEntityType, body.criteria);
  const hasTeams = parseTeamIdsParam(input.teamIds).length > 0;

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'QUICK_FILTER');
      await assertFolderExists(tx, criteria, customerId);
      const row = await q.insertQuickFilter(tx, {
        id: uuidv7(),
        customerId,
        name: body.name,
        filteredEntityType: body.filteredEntityType,
        criteria,
        listed: body.listed ?? true,
        custom: body.custom ?? false,
      });
      if (hasTeams) await assignTeams(tx, ctx, 'quickFilter', row.id, input.teamIds);
      await audit(tx, ctx, row, 'create', `Quick filter '${row.name}' (${enLabels.entityType[row.filteredEntityType]}) created`, {
        ...body,
        criteria,
      });

      return (await readQuickFilter(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** PUT /api/quickFilter/?quickFilterId=: partial; `filteredEntityType` is immutable. */
export async function updateQuickFilter(ctx: ServiceContext, input: { id: string; body: QuickFilterUpdate }) {
  const { body } = input;

  return uniqueName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableQuickFilter(tx, ctx, input.id);
      if (body.filteredEntityType !== undefined && body.filteredEntityType !== row.filteredEntityType) {
        throw new ValidationError('quickFilter.error.immutableType', `filteredEntityType cannot change (it is ${row.filteredEntityType})`, {
          field: 'filteredEntityType',
        });
      }
      if (await isUsedByChannels(tx, row.id)) {
        throw new ConflictError('quickFilter.error.readOnly', `Quick filter '${row.name}' is used by channels and cannot change`, {
          id: row.id,
        });
      }
      const values: Partial<typeof quickFilters.$inferInsert> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.listed !== undefined) values.listed = body.listed;
      if (body.custom !== undefined) values.custom = body.custom;
      if (body.criteria !== undefined) {
        values.criteria = validateCriteria(row.filteredEntityType, body.criteria);
        await assertFolderExists(tx, values.criteria as Criteria, row.customerId);
      }
      const changes = diffFields(row, values);
      if (Object.keys(changes).length > 0) {
        await q.updateQuickFilter(tx, row.customerId, row.id, values);
        await audit(tx, ctx, row, 'update', `Quick filter '${row.name}' updated: ${Object.keys(changes).join(', ')}`, changes);
      }

      return (await readQuickFilter(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** DELETE /api/quickFilter/?quickFilterId=: refused (409) while anything registered uses the filter. */
export async function deleteQuickFilter(ctx: ServiceContext, input: { id: string }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableQuickFilter(tx, ctx, input.id);
    const blockers = await quickFilterDeletionBlockers(tx, row.id);
    if (blockers.length > 0) {
      const count = blockers.reduce((sum, b) => sum + b.count, 0);
      const what = blockers.map((b) => `${b.count} ${b.kind}`).join(', ');
      throw new ConflictError('quickFilter.error.inUse', `Quick filter '${row.name}' is in use (${what})`, { usages: blockers, count });
    }
    await q.deleteQuickFilter(tx, row);
    await audit(tx, ctx, row, 'delete', `Quick filter '${row.name}' deleted`);
  });
}

/**
 * `readOnly` (spec 3): used by channels or sub-channels, or read-only through every caller team.
 * Added where the client's `select` asks for it (or takes the default shape).
 */
function readOnlyColumn(ctx: ServiceContext, select: string | undefined, always: boolean): Record<string, SQL> | undefined {
  if (!always && !selectsField(select, 'readOnly')) return undefined;

  return { readOnly: sql`(${usedByChannelsSql(sql`${quickFilters.id}`)} or ${readOnlyExpression(ctx, 'quickFilter', quickFilters.id)})` };
}

async function readQuickFilter(db: Executor, ctx: ServiceContext, id: string, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<QuickFilter>(db, {
    resource: quickFilterResource,
    scope: ctx.scope,
    where: [eq(quickFilters.id, id), options.visibleOnly ? teamAccessCondition(ctx, 'quickFilter', quickFilters.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, options.select, false),
    size: '1',
  });

  return page.content[0];
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 through read-only teams. */
async function writableQuickFilter(tx: Executor, ctx: ServiceContext, id: string): Promise<QuickFilterRow> {
  const row = UUID.test(id) ? await q.lockQuickFilter(tx, ctx.scope, id) : undefined;
  if (!row) throw new NotFoundError('quickFilter', id);
  await assertWritable(tx, ctx, 'quickFilter', row.id);

  return row;
}

function isUsedByChannels(tx: Executor, id: string): Promise<boolean> {
  return q.isUsedByChannels(tx, id, usedByChannelsSql(sql`${quickFilters.id}`));
}

/** The criteria's folder must be a folder of the customer (of the entity's kind). */
async function assertFolderExists(tx: Executor, criteria: Criteria, customerId: number): Promise<void> {
  const folder =
    criteria.type === 'FILE'
      ? (['folderId', criteria.folderId] as const)
      : criteria.type === 'CONTENT'
        ? (['groupId', criteria.groupId] as const)
        : (['deviceGroupId', criteria.deviceGroupId] as const);
  if (!folder[1]) return;
  if (!(await q.folderExists(tx, criteria.type, folder[1], customerId))) {
    throw new ValidationError('quickFilter.error.unknownFolder', `No folder with id ${folder[1]} (criteria.${folder[0]})`, {
      field: `criteria.${folder[0]}`,
    });
  }
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'quick_filter_customer_name_key')) {
      throw new ConflictError('quickFilter.error.nameExists', `A quick filter named '${name}' already exists`, { name });
    }
    throw err;
  }
}

const audit = auditOf('quickFilter', (row: QuickFilterRow) => ({ entityId: row.id, entityName: row.name, customerId: row.customerId }));

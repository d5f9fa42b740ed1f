import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { uuidEquals } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import {
  assertWritable,
  assignTeams,
  modifyTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  readOnlyExpression,
  teamAccessCondition,
  type TeamAccessList,
  teamListQuery,
  type TeamModification,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import * as q from './advertisers.queries';
import { advertiserResource } from './advertisers.resource';
import type { Advertiser, AdvertiserCreate, AdvertiserUpdate, AdvertiserValidityInput, SimpleAdvertiser } from './advertisers.schemas';
import { advertisers, type AdvertiserRow, type StoredValidity } from './advertisers.table';

export const auditAdvertiser = auditOf('advertiser', (row: AdvertiserRow) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));

type AdvertiserListInput = ListInput & TeamReadInput;

/** GET /api/adv: paged, with search, select, sort and the team read parameters; by name unless sorted. */
export function listAdvertisers(ctx: ServiceContext, input: AdvertiserListInput) {
  const team = teamListQuery(ctx, 'advertiser', advertisers.id, input);
  const { sort, ...query } = team.query;

  return findPage<Advertiser>(ctx.db, {
    resource: advertiserResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: readOnlyColumn(ctx, 'advertiser', advertisers.id, { select: query.select, always: input.includeReadOnlyInfo === true }),
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
}

type SimpleInput = { search?: string; includeReadOnlyInfo?: boolean };

/**
 * GET /api/adv/simple: `{content: [{id, name, readOnly}]}` of every advertiser the caller sees, by name.
 * At most MAX_PAGE_SIZE (1 000) items; /simplePaged pages beyond that.
 */
export async function listSimpleAdvertisers(ctx: ServiceContext, input: SimpleInput): Promise<{ content: SimpleAdvertiser[] }> {
  const page = await listSimpleAdvertisersPaged(ctx, { ...input, sort: [], size: String(MAX_PAGE_SIZE) });

  return { content: page.content };
}

/** GET /api/adv/simplePaged: the same items in the page envelope. */
export function listSimpleAdvertisersPaged(ctx: ServiceContext, input: SimpleInput & Omit<ListInput, 'select'>) {
  const { includeReadOnlyInfo, sort, ...query } = input;

  return findPage<SimpleAdvertiser>(ctx.db, {
    resource: advertiserResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, 'advertiser', advertisers.id)],
    select: 'id,name',
    extraColumns: includeReadOnlyInfo ? { readOnly: readOnlyExpression(ctx, 'advertiser', advertisers.id) } : undefined,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
}

/** GET /api/adv/{advertiserId}: one advertiser the caller sees (404 otherwise), with `readOnly`. */
export async function getAdvertiser(ctx: ServiceContext, input: { id: string }): Promise<Advertiser> {
  const found = await readAdvertiser(ctx.db, ctx, input.id, { visibleOnly: true });
  if (!found) throw new NotFoundError('advertiser', input.id);

  return found;
}

/** POST /api/adv: names unique per customer (409); counts against `ADVERTISER`; optional `teamIds`. */
export async function createAdvertiser(ctx: ServiceContext, input: { body: AdvertiserCreate; teamIds?: string }): Promise<Advertiser> {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const hasTeams = parseTeamIdsParam(input.teamIds).length > 0;

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'ADVERTISER');
      const row = await q.insertAdvertiser(tx, {
        id: uuidv7(),
        customerId,
        name: body.name,
        comment: body.comment ?? null,
        enabled: body.enabled ?? false,
        validity: storedValidity(body.validity),
      });
      if (hasTeams) await assignTeams(tx, ctx, 'advertiser', row.id, input.teamIds);
      await auditAdvertiser(tx, ctx, row, 'create', `Advertiser '${row.name}' created`, {
        name: row.name,
        comment: row.comment,
        enabled: row.enabled,
        validity: row.validity,
      });

      return (await readAdvertiser(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** PUT /api/adv/{advertiserId}: partial (spec 1 rule 2); `validity` replaces the whole object. */
export async function updateAdvertiser(ctx: ServiceContext, input: { id: string; body: AdvertiserUpdate }): Promise<Advertiser> {
  const { body } = input;

  return uniqueName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableAdvertiser(tx, ctx, input.id);
      const values: Partial<typeof advertisers.$inferInsert> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.comment !== undefined) values.comment = body.comment;
      if (body.enabled !== undefined) values.enabled = body.enabled;
      if (body.validity !== undefined && !sameValidity(row.validity, storedValidity(body.validity)))
        values.validity = storedValidity(body.validity);
      const changes = diffFields(row, values);
      if (Object.keys(changes).length > 0) {
        await q.updateAdvertiser(tx, row.customerId, row.id, values);
        await auditAdvertiser(
          tx,
          ctx,
          { ...row, name: values.name ?? row.name },
          'update',
          `Advertiser '${values.name ?? row.name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        );
      }

      return (await readAdvertiser(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** DELETE /api/adv/{advertiserId}: nothing references advertisers yet (campaigns will, through a nullable column). */
export async function deleteAdvertiser(ctx: ServiceContext, input: { id: string }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableAdvertiser(tx, ctx, input.id);
    await q.deleteAdvertiser(tx, row);
    await auditAdvertiser(tx, ctx, row, 'delete', `Advertiser '${row.name}' deleted`);
  });
}

/** POST /api/adv/updateTeamAssignments?advertiserId= (OWNER). */
export function updateAdvertiserTeams(ctx: ServiceContext, input: { id: string; body: TeamModification }): Promise<TeamAccessList> {
  return withTransaction(ctx.db, (tx) => modifyTeams(tx, ctx, 'advertiser', input.id, input.body));
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 `team.error.readOnly` through read-only teams. */
export async function writableAdvertiser(tx: Executor, ctx: ServiceContext, id: string): Promise<AdvertiserRow> {
  const row = await q.lockAdvertiser(tx, ctx.scope, id);
  if (!row) throw new NotFoundError('advertiser', id);
  await assertWritable(tx, ctx, 'advertiser', row.id);

  return row;
}

/** The row when the caller sees it (team access); 404 otherwise. */
export async function visibleAdvertiser(db: Executor, ctx: ServiceContext, id: string): Promise<AdvertiserRow> {
  const row = await q.findAdvertiser(db, ctx.scope, id, teamAccessCondition(ctx, 'advertiser', advertisers.id));
  if (!row) throw new NotFoundError('advertiser', id);

  return row;
}

/** One advertiser in the list's shape, `readOnly` included. */
async function readAdvertiser(
  db: Executor,
  ctx: ServiceContext,
  id: string,
  options: { visibleOnly: boolean },
): Promise<Advertiser | undefined> {
  const page = await findPage<Advertiser>(db, {
    resource: advertiserResource,
    scope: ctx.scope,
    where: [uuidEquals(advertisers.id, id), options.visibleOnly ? teamAccessCondition(ctx, 'advertiser', advertisers.id) : undefined],
    extraColumns: { readOnly: readOnlyExpression(ctx, 'advertiser', advertisers.id) },
    size: '1',
  });

  return page.content[0];
}

/** The stored form of a validity input: absent and null members left out; nothing at all is null. */
function storedValidity(input: AdvertiserValidityInput | null | undefined): StoredValidity | null {
  if (!input) return null;
  const stored = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== null && value !== undefined && value !== ''),
  ) as StoredValidity;

  return Object.keys(stored).length > 0 ? stored : null;
}

/** jsonb answers its keys in its own order: compare validity objects by content. */
function sameValidity(a: StoredValidity | null, b: StoredValidity | null): boolean {
  const canonical = (v: StoredValidity | null) => JSON.stringify(v ? Object.entries(v).sort(([x], [y]) => x.localeCompare(y)) : null);

  return canonical(a) === canonical(b);
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'advertiser_customer_name_key')) {
      throw new ConflictError('advertiser.error.nameExists', `An advertiser named '${name}' already exists`, { name });
    }
    throw err;
  }
}

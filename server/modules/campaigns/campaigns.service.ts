import { and, eq, type SQL } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { announceDeviceChange } from '@/server/modules/devices';
import { devices } from '@/server/modules/devices/devices.table';
import {
  modifyTeams,
  type TeamAccessList,
  type TeamModification,
  readOnlyExpression,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, parseSelect, type ListInput, type SelectItem } from '@/server/query';
import { assignmentKinds, type AssignmentKind } from './campaign-assignments';
import { affectedScreenCounts, targetedDeviceIds, targetedDevices } from './campaign-targeting.queries';
import {
  assignmentsOf,
  customersOfCampaigns,
  deleteCampaignRow,
  findCampaignForWrite,
  findCampaignRef,
  teamsOfCampaigns,
} from './campaigns.queries';
import { campaignResource, pageExtraFields } from './campaigns.resource';
import type { Campaign } from './campaigns.schemas';
import { campaigns, type CampaignRow } from './campaigns.table';

export const auditCampaign = auditOf('campaign', (row: Pick<CampaignRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));

type Caller = Pick<ServiceContext, 'actor' | 'scope'>;

export function campaignAccess(ctx: { actor: Actor }): SQL | undefined {
  return teamAccessCondition(ctx, 'campaign', campaigns.id);
}

/** What a campaign is in words, for messages. */
export function campaignWord(row: Pick<CampaignRow, 'level'>): string {
  return row.level === 'TOP' ? 'Schedule' : 'Channel';
}

/** A path or query id: digits only (anything else finds nothing, answered 404 like an unknown id). */
export function parseCampaignId(raw: string | number): number | undefined {
  const text = String(raw);
  if (!/^\d{1,15}$/.test(text)) return undefined;

  return Number(text);
}

/**
 * A campaign the caller changes: 404 when not in the scope or not visible through the caller's teams, 403
 * `team.error.readOnly` through read-only teams, 409 `campaign.error.locked` while locked (unless `allowLocked`).
 * Row-locked until the transaction ends.
 */
export async function writableCampaign(
  tx: Executor,
  ctx: ServiceContext,
  rawId: string | number,
  options: { allowLocked?: boolean } = {},
): Promise<CampaignRow> {
  const id = parseCampaignId(rawId);
  const found =
    id === undefined
      ? undefined
      : await findCampaignForWrite(tx, {
          where: and(eq(campaigns.id, id), scopeCondition(ctx.scope, campaigns.customerId)),
          visible: campaignAccess(ctx),
          readOnly: readOnlyExpression(ctx, 'campaign', campaigns.id),
          lock: true,
        });
  if (!found) throw new NotFoundError('campaign', rawId);
  assertCampaignWritable({ ...found.row, visible: found.visible, readOnly: found.readOnly }, rawId, options);

  return found.row;
}

/**
 * What a caller may not do to a campaign it names, in the order it is told: 404 when not found or invisible
 * (never revealing it), 403 `team.error.readOnly` through read-only teams, 409 `campaign.error.locked` while
 * locked (unless `allowLocked`).
 */
export function assertCampaignWritable(
  found: { id: number; name: string; locked: boolean; visible: boolean; readOnly: boolean } | undefined,
  rawId: string | number,
  options: { allowLocked?: boolean } = {},
): void {
  if (!found || !found.visible) throw new NotFoundError('campaign', rawId);
  if (found.readOnly)
    throw new ForbiddenError('Your teams give read-only access to this campaign', 'team.error.readOnly', {
      resourceType: 'campaign',
      id: found.id,
    });
  if (found.locked && !options.allowLocked) {
    throw new ConflictError('campaign.error.locked', `'${found.name}' is locked; unlock it first (locked: false)`, {
      id: found.id,
    });
  }
}

type Extra = (typeof pageExtraFields)[number];

function serialize(item: SelectItem): string {
  return item.children ? `${item.name}(${item.children.map(serialize).join(',')})` : item.name;
}

/**
 * Splits `select` into what the statement projects and the fields answered after the page is read
 * (assignment lists, teams, `affectedScreenCount`; `names` for another owner such as messages). Without
 * `select`, `defaults` are answered.
 */
export function splitSelect<E extends string = Extra>(
  select: string | undefined,
  defaults: readonly E[],
  names: readonly string[] = pageExtraFields,
): { select: string | undefined; extras: Set<E> } {
  if (select === undefined || select.trim() === '') return { select, extras: new Set(defaults) };
  const items = parseSelect(select);
  if (!items) return { select, extras: new Set() };
  const extras = new Set<E>();
  const rest: SelectItem[] = [];
  for (const item of items) {
    if (!names.includes(item.name)) {
      rest.push(item);
      continue;
    }
    if (item.children) {
      throw new ValidationError('select.error.unknownField', `Field '${item.name}' is not a relation (select position ${item.position})`, {
        position: item.position,
        token: item.name,
      });
    }
    extras.add(item.name as E);
  }

  return { select: rest.length > 0 ? rest.map(serialize).join(',') : 'id', extras };
}

/** Adds the assignment lists named in `extras` to a page of campaigns or messages: one statement per list. */
export async function attachAssignmentLists(
  db: Executor,
  items: readonly { id: number }[],
  extras: ReadonlySet<string>,
  kinds: readonly AssignmentKind[],
): Promise<void> {
  const ids = items.map((item) => item.id);
  const out = items as unknown as Record<string, unknown>[];
  for (const kind of kinds) {
    if (!extras.has(kind.listField)) continue;
    const lists = await assignmentsOf(db, kind, ids);
    items.forEach((item, i) => (out[i]![kind.listField] = lists.get(item.id) ?? []));
  }
}

/** Adds the extra fields to a page of campaigns: one statement per named list for the whole page. */
async function attachExtras(db: Executor, items: Campaign[], extras: Set<Extra>): Promise<void> {
  if (items.length === 0 || extras.size === 0) return;
  const ids = items.map((item) => item.id);
  const out = items as unknown as Record<string, unknown>[];
  await attachAssignmentLists(db, items, extras, assignmentKinds);
  if (extras.has('teamAssignments') || extras.has('teamAccessList')) {
    const teams = await teamsOfCampaigns(db, ids);
    items.forEach((item, i) => {
      const own = teams.get(item.id) ?? [];
      if (extras.has('teamAssignments')) out[i]!.teamAssignments = own.map((t) => ({ id: t.id, name: t.name }));
      if (extras.has('teamAccessList')) out[i]!.teamAccessList = { teams: own };
    });
  }
  if (extras.has('affectedScreenCount')) {
    const owners = await customersOfCampaigns(db, ids);
    const counts = new Map<number, number>();
    for (const customerId of new Set(owners.map((o) => o.customerId))) {
      const ofCustomer = owners.filter((o) => o.customerId === customerId).map((o) => o.id);
      for (const [id, n] of await affectedScreenCounts(db, customerId, ofCustomer)) counts.set(id, n);
    }
    items.forEach((item, i) => (out[i]!.affectedScreenCount = counts.get(item.id) ?? 0));
  }
}

/** GET /api/v2/campaign: channels and schedules, filtered, sorted and paged in one statement; lists per page. */
export async function listCampaigns(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, 'campaign', campaigns.id, input);
  const { sort, select: rawSelect, ...query } = team.query;
  const { select, extras } = splitSelect(rawSelect, []);
  const page = await findPage<Campaign>(ctx.db, {
    resource: campaignResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns,
    select,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
  await attachExtras(ctx.db, page.content, extras);

  return page;
}

/** Every extra field: what one campaign's read (and a write's answer) holds without `select`. */
const SINGLE_EXTRAS: readonly Extra[] = ['teamAccessList', ...assignmentKinds.map((k) => k.listField as Extra)];

/** One campaign as the caller sees it (404 when invisible), with `readOnly`. */
export async function readCampaign(db: Executor, ctx: Caller, rawId: string | number, rawSelect?: string): Promise<Campaign> {
  const id = parseCampaignId(rawId);
  if (id === undefined) throw new NotFoundError('campaign', rawId);
  const { select, extras } = splitSelect(rawSelect, SINGLE_EXTRAS);
  const page = await findPage<Campaign>(db, {
    resource: campaignResource,
    scope: ctx.scope,
    where: [eq(campaigns.id, id), campaignAccess(ctx)],
    extraColumns: { readOnly: readOnlyExpression(ctx, 'campaign', campaigns.id) },
    select,
    size: '1',
  });
  const item = page.content[0];
  if (!item) throw new NotFoundError('campaign', rawId);
  await attachExtras(db, page.content, extras);

  return item;
}

export function getCampaign(ctx: ServiceContext, id: string | number, select?: string): Promise<Campaign> {
  return readCampaign(ctx.db, ctx, id, select);
}

/** GET /api/campaign/playerDevices: the screens the campaign targets that the caller may see, by name. */
export async function campaignPlayerDevices(ctx: ServiceContext, rawId: string | number): Promise<{ id: string; name: string }[]> {
  const id = parseCampaignId(rawId);
  const row =
    id === undefined
      ? undefined
      : await findCampaignRef(ctx.db, and(eq(campaigns.id, id), scopeCondition(ctx.scope, campaigns.customerId), campaignAccess(ctx)));
  if (!row) throw new NotFoundError('campaign', rawId);

  return targetedDevices(ctx.db, {
    customerId: row.customerId,
    campaignId: row.id,
    visible: teamAccessCondition(ctx, 'device', devices.id),
  });
}

/**
 * Tells the screens a campaign targeted before a change and those it targets after it that their manifest
 * changed (`before` read earlier in the same transaction). One targeting statement.
 */
export async function announceCampaignChange(
  tx: Executor,
  row: Pick<CampaignRow, 'id' | 'customerId'>,
  before: readonly string[],
): Promise<void> {
  const after = await targetedDeviceIds(tx, row.customerId, [row.id]);
  const deviceIds = [...new Set([...before, ...after])];
  await announceDeviceChange(tx, { customerId: row.customerId, deviceIds, kind: 'settings' });
}

/** DELETE /api/campaign/{id}: the campaign and its assignments; nothing else (no cascade to what it plays). */
export async function deleteCampaign(ctx: ServiceContext, rawId: string | number): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableCampaign(tx, ctx, rawId);
    const before = await targetedDeviceIds(tx, row.customerId, [row.id]);
    await deleteCampaignRow(tx, row.customerId, row.id);
    await announceDeviceChange(tx, { customerId: row.customerId, deviceIds: before, kind: 'settings' });
    await auditCampaign(tx, ctx, row, 'delete', `${campaignWord(row)} '${row.name}' deleted`);
  });
}

/** POST /api/campaign/updateTeamAssignments (OWNER): the campaign's teams, which also narrow its DYNAMIC screens. */
export async function updateCampaignTeamAssignments(
  ctx: ServiceContext,
  rawId: string | number,
  change: TeamModification,
): Promise<TeamAccessList> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableCampaign(tx, ctx, rawId, { allowLocked: true });
    const before = await targetedDeviceIds(tx, row.customerId, [row.id]);
    const teams = await modifyTeams(tx, ctx, 'campaign', String(row.id), change);
    await announceCampaignChange(tx, row, before);

    return teams;
  });
}

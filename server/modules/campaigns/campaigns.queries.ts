import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam, uuidEquals } from '@/server/db/sql';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import type { AssignmentItem, AssignmentKind } from './campaign-assignments';
import { campaigns, type CampaignRow } from './campaigns.table';

export async function insertCampaign(db: Executor, values: typeof campaigns.$inferInsert): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();

  return row!;
}

export type CampaignChanges = Partial<
  Omit<typeof campaigns.$inferInsert, 'id' | 'customerId' | 'type' | 'level' | 'deviceSelectionMode' | 'createdDate'>
>;

export async function updateCampaignRow(db: Executor, customerId: number, id: number, values: CampaignChanges): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db
    .update(campaigns)
    .set(values)
    .where(and(eq(campaigns.id, id), eq(campaigns.customerId, customerId)));
}

/** Deletes one campaign with its team assignments (its assignments go by cascade). */
export async function deleteCampaignRow(db: Executor, customerId: number, id: number): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, customerId),
        eq(teamAssignments.resourceType, 'campaign'),
        eq(teamAssignments.resourceId, String(id)),
      ),
    );
  await db.delete(campaigns).where(and(eq(campaigns.id, id), eq(campaigns.customerId, customerId)));
}

/** One campaign of `where` with whether the caller sees it and reads it only; row-locked when `lock`. */
export async function findCampaignForWrite(
  db: Executor,
  input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL; lock?: boolean },
) {
  const query = db
    .select({ row: campaigns, visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(campaigns)
    .where(input.where)
    .limit(1);
  const [found] = input.lock ? await query.for('update', { of: campaigns }) : await query;

  return found;
}

export async function countCampaignsOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(campaigns)
    .where(eq(campaigns.customerId, customerId));

  return Number(row?.n ?? 0);
}

function idArray(kind: AssignmentKind, ids: readonly (string | number)[]): SQL {
  return kind.idType === 'uuid' ? uuidArrayParam(ids as string[]) : bigintArrayParam(ids as number[]);
}

/** The ids among `ids` that are targets of `kind` in `customerId` (all of them for a kind without a target table). */
export async function existingTargets(
  db: Executor,
  kind: AssignmentKind,
  customerId: number,
  ids: readonly (string | number)[],
): Promise<Set<string>> {
  if (ids.length === 0 || !kind.target) return new Set(ids.map(String));
  const { table, id, customerId: owner } = kind.target;
  // Compared as text: bigint ids come back from the driver as strings.
  const rows = await execRows<{ id: string }>(
    db,
    sql`select ${id}::text as id from ${table} where ${owner} = ${customerId} and ${id} = any(${idArray(kind, ids)})`,
  );

  return new Set(rows.map((r) => r.id));
}

/** Whether `advertiserId` is an advertiser of `customerId`. */
export async function isAdvertiserOf(db: Executor, customerId: number, advertiserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: advertisers.id })
    .from(advertisers)
    .where(and(uuidEquals(advertisers.id, advertiserId), eq(advertisers.customerId, customerId)))
    .limit(1);

  return rows.length > 0;
}

/** Adds assignments (an existing one takes the new weight). */
export async function addAssignments(
  db: Executor,
  kind: AssignmentKind,
  input: { ownerId: number; customerId: number; items: readonly AssignmentItem[] },
): Promise<void> {
  if (input.items.length === 0) return;
  const target = sql.identifier(kind.targetColumnName);
  const owner = sql.identifier(kind.ownerColumnName);
  const ids = idArray(
    kind,
    input.items.map((i) => i.id),
  );
  if (kind.weighted) {
    const weights = sql`${`{${input.items.map((i) => (i.weight === null ? 'NULL' : String(i.weight))).join(',')}}`}::int[]`;
    await db.execute(sql`insert into ${kind.table} (${owner}, customer_id, ${target}, weight)
      select ${input.ownerId}::bigint, ${input.customerId}::bigint, w.id, w.weight from unnest(${ids}, ${weights}) as w(id, weight)
      on conflict (${owner}, ${target}) do update set weight = excluded.weight`);

    return;
  }
  await db.execute(sql`insert into ${kind.table} (${owner}, customer_id, ${target})
    select ${input.ownerId}::bigint, ${input.customerId}::bigint, w.id from unnest(${ids}) as w(id)
    on conflict do nothing`);
}

export async function removeAssignments(
  db: Executor,
  kind: AssignmentKind,
  input: { ownerId: number; ids: readonly (string | number)[] },
): Promise<void> {
  if (input.ids.length === 0) return;
  await db.execute(
    sql`delete from ${kind.table} where ${sql.identifier(kind.ownerColumnName)} = ${input.ownerId}::bigint and ${sql.identifier(kind.targetColumnName)} = any(${idArray(kind, input.ids)})`,
  );
}

export type AssignmentEntry = { id: string | number; name?: string; weight?: number };

/** Every assignment of `kind` of the owners (campaigns or messages) `ownerIds`, with the target's name: one statement for a page. */
export async function assignmentsOf(
  db: Executor,
  kind: AssignmentKind,
  ownerIds: readonly number[],
): Promise<Map<number, AssignmentEntry[]>> {
  const byCampaign = new Map<number, AssignmentEntry[]>();
  if (ownerIds.length === 0) return byCampaign;
  const target = sql.identifier(kind.targetColumnName);
  const owner = sql.identifier(kind.ownerColumnName);
  const weight = kind.weighted ? sql`a.weight` : sql`null::int`;
  const name = kind.target
    ? sql`(select ${kind.target.name} from ${kind.target.table} where ${kind.target.id} = a.${target})`
    : sql`null::text`;
  const rows = await execRows<{ campaign_id: number; id: string | number; name: string | null; weight: number | null }>(
    db,
    sql`select a.${owner} as campaign_id, a.${target} as id, ${name} as name, ${weight} as weight from ${kind.table} a
      where a.${owner} = any(${bigintArrayParam(ownerIds)}) order by a.${owner}, ${kind.weighted ? sql`a.weight nulls last, ` : sql``}name, a.${target}`,
  );
  for (const row of rows) {
    const entry: AssignmentEntry = { id: kind.idType === 'bigint' ? Number(row.id) : row.id };
    if (row.name !== null) entry.name = row.name;
    if (row.weight !== null) entry.weight = Number(row.weight);
    const list = byCampaign.get(Number(row.campaign_id)) ?? [];
    list.push(entry);
    byCampaign.set(Number(row.campaign_id), list);
  }

  return byCampaign;
}

/** The teams of the campaigns `campaignIds` (`{id, name, readOnly}`), one statement for a page. */
export async function teamsOfCampaigns(
  db: Executor,
  campaignIds: readonly number[],
): Promise<Map<number, { id: string; name: string; readOnly: boolean }[]>> {
  const byCampaign = new Map<number, { id: string; name: string; readOnly: boolean }[]>();
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .select({ resourceId: teamAssignments.resourceId, id: teams.id, name: teams.name, readOnly: teamAssignments.readOnly })
    .from(teamAssignments)
    .innerJoin(teams, eq(teams.id, teamAssignments.teamId))
    .where(and(eq(teamAssignments.resourceType, 'campaign'), inArray(teamAssignments.resourceId, campaignIds.map(String))))
    .orderBy(asc(teams.name), asc(teams.id));
  for (const row of rows) {
    const key = Number(row.resourceId);
    byCampaign.set(key, [...(byCampaign.get(key) ?? []), { id: row.id, name: row.name, readOnly: row.readOnly }]);
  }

  return byCampaign;
}

/** The quick filters among `ids` of `customerId` with their entity types. */
export async function findQuickFilterTypes(db: Executor, customerId: number, ids: readonly string[]) {
  if (ids.length === 0) return [];

  return db
    .select({ id: quickFilters.id, name: quickFilters.name, filteredEntityType: quickFilters.filteredEntityType })
    .from(quickFilters)
    .where(and(eq(quickFilters.customerId, customerId), sql`${quickFilters.id} = any(${uuidArrayParam(ids)})`));
}

/** The teams among `ids` of `customerId`. */
export async function findTeamIds(db: Executor, customerId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.customerId, customerId), sql`${teams.id} = any(${uuidArrayParam(ids)})`));

  return new Set(rows.map((r) => r.id));
}

/** Whether the member (a user or an API key) belongs to any team. */
export async function isInAnyTeam(db: Executor, member: { type: string; id: string }): Promise<boolean> {
  const rows = await db
    .select({ teamId: teamAssignments.teamId })
    .from(teamAssignments)
    .where(and(eq(teamAssignments.resourceType, member.type), eq(teamAssignments.resourceId, member.id)))
    .limit(1);

  return rows.length > 0;
}

/** The id and customer of the first campaign of `where` (conditions built by the service). */
export async function findCampaignRef(db: Executor, where: SQL | undefined): Promise<{ id: number; customerId: number } | undefined> {
  const [row] = await db.select({ id: campaigns.id, customerId: campaigns.customerId }).from(campaigns).where(where).limit(1);

  return row;
}

/** The customer of each of `ids`. */
export function customersOfCampaigns(db: Executor, ids: readonly number[]) {
  return db
    .select({ id: campaigns.id, customerId: campaigns.customerId })
    .from(campaigns)
    .where(inArray(campaigns.id, [...ids]));
}

/** The time rules of the campaigns of `where` (conditions built by the service), and what their items are read by: what their next airing reads. */
export function findCampaignTimeRules(db: Executor, where: SQL | undefined) {
  return db
    .select({
      id: campaigns.id,
      customerId: campaigns.customerId,
      level: campaigns.level,
      type: campaigns.type,
      contentQuickFilterId: campaigns.contentQuickFilterId,
      fileQuickFilterId: campaigns.fileQuickFilterId,
      skipInvalidFiles: campaigns.skipInvalidFiles,
      enabled: campaigns.enabled,
      validFrom: campaigns.validFrom,
      validTo: campaigns.validTo,
      affectedDays: campaigns.affectedDays,
      affectedHours: campaigns.affectedHours,
      affectedDateRanges: campaigns.affectedDateRanges,
    })
    .from(campaigns)
    .where(where);
}

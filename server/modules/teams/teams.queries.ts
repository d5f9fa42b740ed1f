import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import type { TeamResourceRegistration } from './team-registry';
import { teamAssignments, teams } from './teams.table';

export type TeamRow = typeof teams.$inferSelect;

export async function selectVisibility(db: Executor, q: { table: PgTable; where: SQL; visible: SQL; readOnly: SQL }) {
  const rows = await db
    .select({ visible: sql<boolean>`${q.visible}`.as('visible'), readOnly: sql<boolean>`${q.readOnly}`.as('read_only') })
    .from(q.table)
    .where(q.where)
    .limit(1);

  return rows[0];
}

/** The team `id` within the scope (and `visible`, when given). */
export async function findTeam(db: Executor, scope: TenantScope, id: string, visible?: SQL): Promise<TeamRow | undefined> {
  const [row] = await db
    .select()
    .from(teams)
    .where(and(eq(teams.id, id), scopeCondition(scope, teams.customerId), visible))
    .limit(1);

  return row;
}

export async function findTeamsByIds(db: Executor, ids: readonly string[], customerId: number): Promise<TeamRow[]> {
  if (ids.length === 0) return [];

  return db
    .select()
    .from(teams)
    .where(and(inArray(teams.id, [...ids]), eq(teams.customerId, customerId)));
}

export async function insertTeam(db: Executor, values: typeof teams.$inferInsert): Promise<TeamRow> {
  const [row] = await db.insert(teams).values(values).returning();

  return row!;
}

export async function updateTeam(
  db: Executor,
  customerId: number,
  id: string,
  values: { name?: string; comment?: string | null },
): Promise<TeamRow> {
  const [row] = await db
    .update(teams)
    .set(values)
    .where(and(eq(teams.id, id), eq(teams.customerId, customerId)))
    .returning();

  return row!;
}

/** Deleting a team removes its assignments through the foreign key's ON DELETE CASCADE. */
export async function deleteTeam(db: Executor, customerId: number, id: string): Promise<void> {
  await db.delete(teams).where(and(eq(teams.id, id), eq(teams.customerId, customerId)));
}

/** The rows of `ids` that exist in `customerId`, and whether each may join a team. */
export async function findTeamResources(db: Executor, registration: TeamResourceRegistration, ids: readonly string[], customerId: number) {
  if (ids.length === 0) return [];
  const { table, idColumn, customerIdColumn, cannotJoin } = registration;

  return db
    .select({
      id: sql<string>`${idColumn}::text`.as('id'),
      cannotJoin: sql<boolean>`${cannotJoin?.condition ?? sql`false`}`.as('cannot_join'),
    })
    .from(table)
    .where(
      and(
        sql`${idColumn}::text in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
        eq(customerIdColumn, customerId),
      ),
    );
}

/** The customer of one resource within a tenant scope, or undefined when it is not there. */
/** The customer of the resource `id` of a team-capable kind, within the scope (and `visible`, when given). */
export async function findResourceCustomer(
  db: Executor,
  registration: TeamResourceRegistration,
  scope: TenantScope,
  id: string,
  visible?: SQL,
) {
  const { table, idColumn, customerIdColumn } = registration;
  const [row] = await db
    .select({ customerId: sql<number>`${customerIdColumn}`.mapWith(Number).as('customer_id') })
    .from(table)
    .where(and(sql`${idColumn}::text = ${id}`, scopeCondition(scope, customerIdColumn), visible))
    .limit(1);

  return row?.customerId;
}

/** Inserts or updates (team, resource) rows; re-assigning changes only `readOnly`. */
export async function upsertAssignments(db: Executor, rows: (typeof teamAssignments.$inferInsert)[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(teamAssignments)
    .values(rows)
    .onConflictDoUpdate({
      target: [teamAssignments.teamId, teamAssignments.resourceType, teamAssignments.resourceId],
      set: { readOnly: sql`excluded.read_only` },
    });
}

export async function deleteAssignmentsOfTeam(
  db: Executor,
  teamId: string,
  resourceType: string,
  resourceIds: readonly string[],
): Promise<void> {
  if (resourceIds.length === 0) return;
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.teamId, teamId),
        eq(teamAssignments.resourceType, resourceType),
        inArray(teamAssignments.resourceId, [...resourceIds]),
      ),
    );
}

export async function deleteAssignmentsOfResource(
  db: Executor,
  resourceType: string,
  resourceId: string,
  teamIds: readonly string[],
): Promise<void> {
  if (teamIds.length === 0) return;
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.resourceType, resourceType),
        eq(teamAssignments.resourceId, resourceId),
        inArray(teamAssignments.teamId, [...teamIds]),
      ),
    );
}

/** Resources of one type assigned to a team, in a stable order. */
export function selectAssignmentsOfTeam(db: Executor, teamId: string, resourceType: string) {
  return db
    .select({ id: teamAssignments.resourceId, readOnly: teamAssignments.readOnly })
    .from(teamAssignments)
    .where(and(eq(teamAssignments.teamId, teamId), eq(teamAssignments.resourceType, resourceType)))
    .orderBy(asc(teamAssignments.resourceId));
}

/** Teams of one resource (the caller's scope applies through `teamScope`). */
export function selectTeamsOfResource(db: Executor, resourceType: string, resourceId: string, teamScope: SQL | undefined) {
  return db
    .select({ id: teams.id, name: teams.name, readOnly: teamAssignments.readOnly })
    .from(teamAssignments)
    .innerJoin(teams, eq(teams.id, teamAssignments.teamId))
    .where(and(eq(teamAssignments.resourceType, resourceType), eq(teamAssignments.resourceId, resourceId), teamScope))
    .orderBy(asc(teams.name), asc(teams.id));
}

/** The subset of `teamIds` the user is a member of. */
/** Which of `teamIds` the member (a user, or a webhook API key) belongs to. */
export function findMemberships(db: Executor, member: { type: 'user' | 'webhookApiKey'; id: string }, teamIds: readonly string[]) {
  return db
    .select({ teamId: teamAssignments.teamId })
    .from(teamAssignments)
    .where(
      and(
        eq(teamAssignments.resourceType, member.type),
        eq(teamAssignments.resourceId, member.id),
        inArray(teamAssignments.teamId, [...teamIds]),
      ),
    );
}

/** `count(*)` of a team's assignments of one type, correlated with the outer team row. */
export function assignmentCount(teamId: SQL | PgTable['_']['columns'][string], resourceType: string): SQL {
  return sql`(select count(*)::int from ${teamAssignments} where ${teamAssignments.teamId} = ${teamId} and ${teamAssignments.resourceType} = ${resourceType})`;
}

/** The id of the row of `registration` whose natural key (users: email) is `key`, within the scope. */
export async function findIdByNaturalKey(
  db: Executor,
  scope: TenantScope,
  registration: TeamResourceRegistration,
  key: string,
): Promise<string | undefined> {
  if (!registration.naturalKey) return undefined;
  const [row] = await db
    .select({ id: registration.idColumn })
    .from(registration.table)
    .where(and(eq(registration.naturalKey, key), scopeCondition(scope, registration.customerIdColumn)))
    .limit(1);

  return row ? String(row.id) : undefined;
}

/** How many teams the tenant has (its resource-limit usage). */
export async function countTeamsOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(teams).where(eq(teams.customerId, customerId));

  return row?.n ?? 0;
}

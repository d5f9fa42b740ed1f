import type { SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import { findPage, type ListInput } from '@/server/query';
import { assertCanJoin, modifyTeams, teamAccessListOf, teamResourceOf, type TeamAccessList } from './team-assignments';
import { findTeamResource, teamResources } from './team-registry';
import { teamAccessCondition, visibleTeamsCondition } from './team-visibility';
import {
  assignmentCount,
  deleteAssignmentsOfTeam,
  deleteTeam as deleteTeamRow,
  findResourceCustomer,
  findTeam,
  findIdByNaturalKey,
  insertTeam,
  selectAssignmentsOfTeam,
  updateTeam as updateTeamRow,
  upsertAssignments,
  type TeamRow,
} from './teams.queries';
import { teamResource } from './teams.resource';
import {
  type Team,
  type TeamBody,
  type TeamModification,
  teamResourceNumberKey,
  type TeamResourcesUpdate,
  type TeamUpdate,
} from './teams.schemas';
import { teams } from './teams.table';

type TeamListInput = ListInput & { includeTeamUserNumber?: boolean; includeTeamResourceNumber?: boolean };

export function listTeams(ctx: ServiceContext, input: TeamListInput) {
  const { includeTeamUserNumber, includeTeamResourceNumber, ...query } = input;
  const extraColumns: Record<string, SQL> = {};
  if (includeTeamUserNumber) extraColumns.teamUserNumber = assignmentCount(teams.id, 'user');
  if (includeTeamResourceNumber) {
    for (const { type } of teamResources.items())
      if (type !== 'user') extraColumns[teamResourceNumberKey(type)] = assignmentCount(teams.id, type);
  }

  return findPage<Team>(ctx.db, {
    resource: teamResource,
    scope: ctx.scope,
    where: [visibleTeamsCondition(ctx, teams.id)],
    extraColumns,
    ...query,
  });
}

export async function createTeam(ctx: ServiceContext, body: TeamBody) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'TEAM');
      const row = await insertTeam(tx, { id: uuidv7(), customerId, name: body.name, comment: body.comment ?? null });
      await audit(tx, ctx, row, 'create', `Team '${row.name}' created`, { ...body });

      return toTeam(row);
    }),
  );
}

/** PUT /api/team/?teamId=: omitted (or null) attributes keep their value; `comment: ""` removes the comment. */
export async function updateTeam(ctx: ServiceContext, teamId: string, body: TeamUpdate) {
  return uniqueName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const before = await teamInScope(tx, ctx, teamId);
      const values: { name?: string; comment?: string | null } = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.comment !== undefined) values.comment = body.comment;
      const changes = diffFields(before, values);
      if (Object.keys(changes).length === 0) return toTeam(before);
      const row = await updateTeamRow(tx, before.customerId, before.id, values);
      await audit(tx, ctx, row, 'update', `Team '${before.name}' updated: ${Object.keys(changes).join(', ')}`, changes);

      return toTeam(row);
    }),
  );
}

export async function deleteTeam(ctx: ServiceContext, teamId: string): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const team = await teamInScope(tx, ctx, teamId);
    await deleteTeamRow(tx, team.customerId, team.id);
    await audit(tx, ctx, team, 'delete', `Team '${team.name}' deleted`);
  });
}

/** GET /api/team/{type}Assignments: the resources of one kind assigned to a team. */
export async function listTeamAssignments(ctx: ServiceContext, assignmentsPath: string, teamId: string) {
  const registration = teamResourceOf(stripAffixes(assignmentsPath, '', 'Assignments'));
  const team = await teamInScope(ctx.db, ctx, teamId, true);

  return selectAssignmentsOfTeam(ctx.db, team.id, registration.type);
}

/** GET /api/team/{type}/{id}/assignments: the teams of one resource the caller can see. */
export async function listResourceTeams(ctx: ServiceContext, resourceType: string, resourceId: string): Promise<TeamAccessList> {
  const registration = teamResourceOf(resourceType);
  const customerId = await findResourceCustomer(
    ctx.db,
    registration,
    ctx.scope,
    resourceId,
    teamAccessCondition(ctx, registration.type, registration.idColumn),
  );
  if (customerId === undefined) throw new NotFoundError(registration.type, resourceId);

  return teamAccessListOf(ctx.db, registration.type, resourceId, customerId);
}

/** PUT /api/team/update{Type}Assignments: adds and removes resources of one kind on a team. */
export async function updateTeamResources(ctx: ServiceContext, updatePath: string, teamId: string, body: TeamResourcesUpdate) {
  const registration = teamResourceOf(stripAffixes(updatePath, 'update', 'Assignments'));

  return withTransaction(ctx.db, async (tx) => {
    const team = await teamInScope(tx, ctx, teamId);
    const toAdd = [...new Map((body.resourcesToAdd ?? []).map((r) => [r.id, r.readOnly ?? false])).entries()];
    const toRemove = (body.resourceIdsToRemove ?? []).filter((id) => !toAdd.some(([added]) => added === id));
    await assertCanJoin(
      tx,
      registration,
      toAdd.map(([id]) => id),
      team.customerId,
    );
    await deleteAssignmentsOfTeam(tx, team.id, registration.type, toRemove);
    await upsertAssignments(
      tx,
      toAdd.map(([resourceId, readOnly]) => ({
        teamId: team.id,
        resourceType: registration.type,
        resourceId,
        readOnly,
        customerId: team.customerId,
      })),
    );
    await audit(tx, ctx, team, 'updateTeamAssignments', `Team '${team.name}': ${registration.type} +${toAdd.length} −${toRemove.length}`, {
      resourceType: registration.type,
      resourcesToAdd: body.resourcesToAdd ?? [],
      resourceIdsToRemove: toRemove,
    });

    return selectAssignmentsOfTeam(tx, team.id, registration.type);
  });
}

/** POST /api/user/updateTeamAssignments: the team assignment body applied to the user `email`. */
export async function updateUserTeamAssignments(ctx: ServiceContext, email: string, body: TeamModification): Promise<TeamAccessList> {
  return withTransaction(ctx.db, async (tx) => {
    const users = findTeamResource('user');
    const userId = users && (await findIdByNaturalKey(tx, ctx.scope, users, email.trim().toLowerCase()));
    if (!userId) throw new NotFoundError('user', email);

    return modifyTeams(tx, ctx, 'user', userId, body);
  });
}

/** `<prefix><Type><suffix>` → `type`; anything else is an unknown type (404). */
function stripAffixes(path: string, prefix: string, suffix: string): string {
  if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length <= prefix.length + suffix.length) return `?${path}`;

  return path.slice(prefix.length, path.length - suffix.length);
}

async function teamInScope(db: Executor, ctx: ServiceContext, teamId: string, forReading = false): Promise<TeamRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(teamId);
  const visible = forReading ? visibleTeamsCondition(ctx, teams.id) : undefined;
  const team = isUuid ? await findTeam(db, ctx.scope, teamId, visible) : undefined;
  if (!team) throw new NotFoundError('team', teamId);

  return team;
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'team_customer_name_key'))
      throw new ConflictError('team.error.nameExists', `A team named '${name}' already exists`);
    throw err;
  }
}

const audit = auditOf('team', (team: TeamRow) => ({ entityId: team.id, entityName: team.name, customerId: team.customerId }));

/** The entity shape of a team write: the same as a list item (nulls omitted). */
function toTeam(row: TeamRow) {
  return {
    id: row.id,
    name: row.name,
    ...(row.comment === null ? {} : { comment: row.comment }),
    customerId: row.customerId,
    createdDate: row.createdDate.toISOString(),
  };
}

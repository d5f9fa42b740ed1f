import { eq } from 'drizzle-orm';
import type { TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { teamMemberOf, type Actor } from '@/server/context/actor';
import { auditChange } from '@/server/modules/audit-log';
import { findTeamResource, type TeamResourceRegistration } from './team-registry';
import {
  deleteAssignmentsOfResource,
  findResourceCustomer,
  findTeamResources,
  findMemberships,
  findTeamsByIds,
  selectTeamsOfResource,
  upsertAssignments,
} from './teams.queries';
import { teamAssignments } from './teams.table';

/** What the assignment verbs need of a service context. */
export type AssignmentContext = { actor: Actor; scope: TenantScope; requestId: string };

export type TeamGrant = { teamId: string; readOnly: boolean };
/** The modify body of spec 1 "Team assignment". */
export type TeamModification = { assignToTeams?: TeamGrant[]; removeFromTeamIds?: string[] };
/** The `teamAccessList` object of spec 1. */
export type TeamAccessList = { teams: { id: string; name?: string; readOnly: boolean }[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The registration of a wire type name, or 404 `team.error.unknownResourceType`. */
export function teamResourceOf(name: string): TeamResourceRegistration {
  const registration = findTeamResource(name);
  if (!registration) {
    throw new AppError(404, 'team.error.unknownResourceType', `'${name}' is not a team-capable resource type`, { resourceType: name });
  }

  return registration;
}

/** Parses the create parameter `teamIds` (`<id>:<readOnly>,…`; a bare id means writable). */
export function parseTeamIdsParam(raw: string | undefined): TeamGrant[] {
  if (raw === undefined || raw.trim() === '') return [];

  return raw.split(',').map((part) => {
    const [id = '', flag, ...rest] = part.trim().split(':');
    if (!UUID.test(id) || rest.length > 0 || (flag !== undefined && flag !== 'true' && flag !== 'false')) {
      throw new ValidationError('request.error.invalid', `Invalid teamIds entry '${part}': expected <teamId>:<true|false>`, {
        parameter: 'teamIds',
      });
    }

    return { teamId: id.toLowerCase(), readOnly: flag === 'true' };
  });
}

/** Assigns a just-created resource to the teams of the `teamIds` create parameter. */
export async function assignTeams(
  tx: Executor,
  ctx: AssignmentContext,
  resourceType: string,
  resourceId: string,
  teamIdsParam: string | undefined,
): Promise<TeamAccessList> {
  return modifyTeams(tx, ctx, resourceType, resourceId, { assignToTeams: parseTeamIdsParam(teamIdsParam) });
}

/** Applies a modify body (`assignToTeams`, `removeFromTeamIds`) to one resource; answers its teams. */
export async function modifyTeams(
  tx: Executor,
  ctx: AssignmentContext,
  resourceType: string,
  resourceId: string,
  change: TeamModification,
): Promise<TeamAccessList> {
  const registration = teamResourceOf(resourceType);
  const customerId = await findResourceCustomer(tx, registration, ctx.scope, resourceId);
  if (customerId === undefined) throw new NotFoundError(registration.type, resourceId);
  const grants = dedupe(change.assignToTeams ?? []);
  const removals = [...new Set(change.removeFromTeamIds ?? [])];
  await assertTeamsUsable(tx, ctx, [...grants.map((g) => g.teamId), ...removals], customerId);
  if (grants.length > 0) await assertCanJoin(tx, registration, [resourceId], customerId);

  await deleteAssignmentsOfResource(
    tx,
    registration.type,
    resourceId,
    removals.filter((id) => !grants.some((g) => g.teamId === id)),
  );
  await upsertAssignments(
    tx,
    grants.map((g) => ({ teamId: g.teamId, resourceType: registration.type, resourceId, readOnly: g.readOnly, customerId })),
  );
  if (grants.length + removals.length > 0) {
    await auditChange(tx, ctx, {
      action: 'updateTeamAssignments',
      entityType: registration.type,
      entityId: resourceId,
      customerId,
      message: `Team assignments of ${registration.type} ${resourceId} changed: +${grants.length} −${removals.length}`,
      changes: { assignToTeams: grants, removeFromTeamIds: removals },
    });
  }

  return teamAccessListOf(tx, registration.type, resourceId, customerId);
}

/** The teams of one resource as `teamAccessList` (with team names for display). */
export async function teamAccessListOf(
  db: Executor,
  resourceType: string,
  resourceId: string,
  customerId: number,
): Promise<TeamAccessList> {
  const rows = await selectTeamsOfResource(db, resourceType, resourceId, eq(teamAssignments.customerId, customerId));

  return { teams: rows };
}

/**
 * Every team must belong to the resource's customer (404 otherwise: never reveal another tenant's team).
 * Callers below OWNER (who may pass `teamIds` on create) can only use teams they are members of.
 */
async function assertTeamsUsable(tx: Executor, ctx: AssignmentContext, teamIds: string[], customerId: number): Promise<void> {
  const wanted = [...new Set(teamIds)];
  const bad = wanted.find((id) => !UUID.test(id));
  if (bad) throw new NotFoundError('team', bad);
  const found = new Set((await findTeamsByIds(tx, wanted, customerId)).map((t) => t.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw new NotFoundError('team', missing);
  const member = teamMemberOf(ctx.actor);
  if (!member || wanted.length === 0) return;
  const own = await findMemberships(tx, member, wanted);
  if (own.length !== wanted.length) throw new ForbiddenError('You can only assign resources to your own teams', 'team.error.notMember');
}

/** Resources must exist in the team's customer (404) and be allowed to join (users: not OWNER/ADMIN, 409). */
export async function assertCanJoin(
  tx: Executor,
  registration: TeamResourceRegistration,
  ids: readonly string[],
  customerId: number,
): Promise<void> {
  const rows = await findTeamResources(tx, registration, ids, customerId);
  const found = new Map(rows.map((r) => [r.id, r.cannotJoin]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new NotFoundError(registration.type, missing);
  if (registration.cannotJoin && rows.some((r) => r.cannotJoin)) {
    throw new ConflictError(registration.cannotJoin.key, registration.cannotJoin.message, {
      ids: rows.filter((r) => r.cannotJoin).map((r) => r.id),
    });
  }
}

/** The last grant of a team wins when a body names it twice. */
function dedupe(grants: TeamGrant[]): TeamGrant[] {
  return [...new Map(grants.map((g) => [g.teamId.toLowerCase(), { teamId: g.teamId.toLowerCase(), readOnly: g.readOnly }])).values()];
}

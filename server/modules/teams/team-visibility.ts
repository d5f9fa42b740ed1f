import { and, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { homeCustomerOf, teamMemberOf, type Actor } from '@/server/context/actor';
import { customers } from '@/server/tenant/customers.table';
import { aliasedTable } from '@/server/query/relations';
import { selectsField } from '@/server/query/select';
import { findTeamResource, type TeamResourceType } from './team-registry';
import { selectVisibility } from './teams.queries';
import { teamAssignments } from './teams.table';

/**
 * Team visibility (spec 1 "Team-related read parameters", spec 3 "Team access settings").
 * The spec is terse; these are the rules as implemented, each one SQL inside the caller's statement:
 *
 * Terms. "member": the caller has a `team_assignment` row of type `user`. "caller teams": those teams.
 * "team-less": a resource with no `team_assignment` row of its type. Settings are the caller's own
 * customer's (`userFullAccessIfNotInTeam`, `accessResourcesWithoutTeam`).
 *
 * A. Access (what the caller may see at all; single reads and writes use only this):
 *   1. OWNER and ADMIN: everything in the tenant scope (they cannot be team members).
 *   2. A restricted user (`user.restricted`): resources assigned to one of the caller teams; nothing else,
 *      whatever the settings (a restricted user in no team sees nothing).
 *   3. Any other member: resources of the caller teams, plus team-less resources when
 *      `accessResourcesWithoutTeam`.
 *   4. Any other non-member: everything when `userFullAccessIfNotInTeam`, otherwise nothing
 *      (the folder modules add their root folder on top of this).
 *
 * B. Listing filter (ANDed with A on paged reads):
 *   - A member (rules 2, 3) is filtered to the caller teams, narrowed further to `selectTeamIds`
 *     when given; `includeResourcesWithoutTeam=true` adds the team-less resources A allows.
 *   - Everyone else (rules 1, 4) is unfiltered while `selectTeamIds` is empty; with `selectTeamIds`
 *     the list holds resources assigned to one of those teams, plus team-less ones when
 *     `includeResourcesWithoutTeam=true`.
 *
 * C. Read-only: false for OWNER/ADMIN and for resources the caller sees through no team (team-less,
 *    full access); otherwise true exactly when every caller-team assignment of the resource is
 *    `read_only` (one writable team suffices to write).
 */
export type TeamReadOptions = { includeResourcesWithoutTeam?: boolean; selectTeamIds?: readonly string[] };

type Caller = { actor: Actor };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses the comma-separated `selectTeamIds` parameter; malformed ids are a 400. */
export function parseSelectTeamIds(raw: string | undefined): string[] {
  const ids = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad) throw new ValidationError('request.error.invalid', `Invalid team id '${bad}' in selectTeamIds`, { parameter: 'selectTeamIds' });

  return ids;
}

/** OWNER and ADMIN users, devices and the system: team assignments do not narrow what they see. */
export function isAboveTeams(actor: Actor): boolean {
  return teamMemberOf(actor) === undefined;
}

/** The actor as a team member (a user below OWNER, or a webhook API key); call only when not above teams. */
function memberOf(actor: Actor): TeamMember {
  const member = teamMemberOf(actor);
  if (!member) throw new Error(`a ${actor.kind} actor is above teams`);

  return { ...member, customerId: homeCustomerOf(actor)! };
}

type TeamMember = NonNullable<ReturnType<typeof teamMemberOf>> & { customerId: number };
/** A member whose id may be an expression of the statement (restrictedKeyAccessCondition). */
type MemberOfStatement = Omit<TeamMember, 'id'> & { id: string | SQL };

/** The visibility (A) and listing filter (B) for rows of `resourceType` whose id is `idColumn`. */
export function teamVisibilityCondition(
  ctx: Caller,
  resourceType: TeamResourceType,
  idColumn: AnyPgColumn | SQL,
  options: TeamReadOptions = {},
): SQL | undefined {
  const selected = options.selectTeamIds ?? [];
  const include = options.includeResourcesWithoutTeam === true;
  const unfiltered = (parts: Parts | AboveTeams) =>
    selected.length === 0 ? sql`true` : sql`(${parts.assignedTo(selected)} or ${include ? sql`not ${parts.assigned()}` : sql`false`})`;
  if (isAboveTeams(ctx.actor)) return selected.length === 0 ? undefined : unfiltered(new AboveTeams(resourceType, idColumn));
  const member = memberOf(ctx.actor);
  const parts = new Parts(member, resourceType, idColumn);
  const unfilteredList = unfiltered(parts);

  const ofCallerTeams = parts.inCallerTeams(selected);
  const teamLess = include ? sql`(${parts.setting(customers.accessResourcesWithoutTeam)} and not ${parts.assigned()})` : sql`false`;
  const asMember = sql`(${ofCallerTeams} or ${teamLess})`;
  if (member.restricted) return ofCallerTeams;

  return sql`(case when ${parts.isMember()} then ${asMember} else (${parts.setting(customers.userFullAccessIfNotInTeam)} and ${unfilteredList}) end)`;
}

/** Access only (rule A), for single reads and writes. */
export function teamAccessCondition(ctx: Caller, resourceType: TeamResourceType, idColumn: AnyPgColumn | SQL): SQL | undefined {
  if (isAboveTeams(ctx.actor)) return undefined;
  const member = memberOf(ctx.actor);
  const parts = new Parts(member, resourceType, idColumn);
  const ofCallerTeams = parts.inCallerTeams([]);
  if (member.restricted) return ofCallerTeams;

  return sql`(case when ${parts.isMember()}
    then (${ofCallerTeams} or (${parts.setting(customers.accessResourcesWithoutTeam)} and not ${parts.assigned()}))
    else ${parts.setting(customers.userFullAccessIfNotInTeam)} end)`;
}

/**
 * Access (rule A) of restricted webhook API keys whose id (text) is `keyId`, an expression of the statement rather than
 * one caller: a statement over the triggers of many keys at once (the webhook group commit). The same condition
 * `teamAccessCondition` gives a restricted key; built once by its caller, so the statement's text stays the same.
 */
export function restrictedKeyAccessCondition(keyId: SQL, resourceType: TeamResourceType, idColumn: AnyPgColumn | SQL): SQL {
  return new Parts({ type: 'webhookApiKey', id: keyId, restricted: true, customerId: 0 }, resourceType, idColumn).inCallerTeams([]);
}

/**
 * Which teams the caller may list (spec silent): OWNER/ADMIN and full-access non-members every team
 * of the tenant scope; members (and restricted users) only the teams they belong to.
 */
export function visibleTeamsCondition(ctx: Caller, teamIdColumn: AnyPgColumn): SQL | undefined {
  if (isAboveTeams(ctx.actor)) return undefined;
  const member = memberOf(ctx.actor);
  const parts = new Parts(member, member.type, sql`${member.id}`);
  const own = sql`${teamIdColumn} in (${parts.callerTeamsList()})`;
  if (member.restricted) return own;

  return sql`(case when ${parts.isMember()} then ${own} else ${parts.setting(customers.userFullAccessIfNotInTeam)} end)`;
}

/** Rule C as a boolean SQL expression (for `includeReadOnlyInfo` and write checks). */
export function readOnlyExpression(ctx: Caller, resourceType: TeamResourceType, idColumn: AnyPgColumn | SQL): SQL {
  if (isAboveTeams(ctx.actor)) return sql`false`;
  const parts = new Parts(memberOf(ctx.actor), resourceType, idColumn);

  return sql`(${parts.inCallerTeams([], sql`true`)} and not ${parts.inCallerTeams([], sql`false`)})`;
}

/**
 * The `readOnly` column of a team resource's read (read-only through every team of the caller), when the answer's
 * shape has it (`select` names it, or selects everything) or `always`.
 */
export function readOnlyColumn(
  ctx: Caller,
  resourceType: TeamResourceType,
  idColumn: AnyPgColumn,
  options: { select: string | undefined; always?: boolean },
): { readOnly: SQL } | undefined {
  return options.always || selectsField(options.select, 'readOnly')
    ? { readOnly: readOnlyExpression(ctx, resourceType, idColumn) }
    : undefined;
}

/**
 * Refuses a write to a resource the caller cannot see (404, never revealing it) or sees only
 * through read-only team assignments (403 `team.error.readOnly`).
 */
export async function assertWritable(
  tx: Executor,
  ctx: Caller & { scope: TenantScope },
  resourceType: TeamResourceType,
  id: string,
): Promise<void> {
  const registration = findTeamResource(resourceType);
  if (!registration) throw new NotFoundError(resourceType, id);
  const { table, idColumn, customerIdColumn } = registration;
  const row = await selectVisibility(tx, {
    table,
    where: and(sql`${idColumn}::text = ${id}`, scopeCondition(ctx.scope, customerIdColumn))!,
    visible: teamAccessCondition(ctx, resourceType, idColumn) ?? sql`true`,
    readOnly: readOnlyExpression(ctx, resourceType, idColumn),
  });
  if (!row || !row.visible) throw new NotFoundError(resourceType, id);
  if (row.readOnly)
    throw new ForbiddenError(`Your teams give read-only access to this ${resourceType}`, 'team.error.readOnly', { resourceType, id });
}

let aliasCounter = 0;

/** Distinct alias names: several conditions may meet in one statement. */
function assignmentAlias() {
  aliasCounter = (aliasCounter + 1) % 1_000_000;

  return aliasedTable(teamAssignments, `tv${aliasCounter}`);
}

/** The blocks that need no caller: whether the outer row is assigned to any team, or to given teams. */
class AboveTeams {
  constructor(
    protected readonly type: TeamResourceType,
    protected readonly id: AnyPgColumn | SQL,
  ) {}

  assigned(): SQL {
    const a = assignmentAlias();

    return sql`exists (select 1 from ${a.from} where ${a.table.resourceType} = ${this.type} and ${a.table.resourceId} = ${this.id}::text)`;
  }

  assignedTo(teamIds: readonly string[]): SQL {
    const a = assignmentAlias();

    return sql`exists (select 1 from ${a.from} where ${a.table.resourceType} = ${this.type} and ${a.table.resourceId} = ${this.id}::text
      and ${a.table.teamId} in (${sql.join(
        teamIds.map((t) => sql`${t}::uuid`),
        sql`, `,
      )}))`;
  }
}

/** SQL building blocks over `team_assignment` for a team member, each an EXISTS correlated with the outer row. */
class Parts extends AboveTeams {
  constructor(
    private readonly member: MemberOfStatement,
    type: TeamResourceType,
    id: AnyPgColumn | SQL,
  ) {
    super(type, id);
  }

  /** The member's teams: its own assignments (a user's, or a webhook API key's). */
  private callerTeams(): SQL {
    const m = assignmentAlias();

    return sql`select ${m.table.teamId} from ${m.from} where ${m.table.resourceType} = ${this.member.type} and ${m.table.resourceId} = ${this.member.id}`;
  }

  callerTeamsList(): SQL {
    return this.callerTeams();
  }

  isMember(): SQL {
    return sql`exists (${this.callerTeams()})`;
  }

  setting(column: AnyPgColumn): SQL {
    return sql`coalesce((select ${column} from ${customers} where ${customers.id} = ${this.member.customerId}), true)`;
  }

  /** Assigned to a caller team (narrowed to `teamIds` when given; to one `read_only` value when given). */
  inCallerTeams(teamIds: readonly string[], readOnly?: SQL): SQL {
    const a = assignmentAlias();
    const narrowed = teamIds.length
      ? sql` and ${a.table.teamId} in (${sql.join(
          teamIds.map((t) => sql`${t}::uuid`),
          sql`, `,
        )})`
      : sql``;
    const flag = readOnly ? sql` and ${a.table.readOnly} = ${readOnly}` : sql``;

    return sql`exists (select 1 from ${a.from} where ${a.table.resourceType} = ${this.type} and ${a.table.resourceId} = ${this.id}::text
      and ${a.table.teamId} in (${this.callerTeams()})${narrowed}${flag})`;
  }
}

/** The team read parameters of spec 1 as a list query's validator gives them. */
export type TeamReadInput = { includeReadOnlyInfo?: boolean; includeResourcesWithoutTeam?: boolean; selectTeamIds?: string };

/**
 * Splits a list query into the team part (a condition and, with `includeReadOnlyInfo=true`, the
 * `readOnly` column for `findPage`'s `extraColumns`) and the rest, for any team-capable list.
 */
export function teamListQuery<T extends TeamReadInput>(ctx: Caller, resourceType: TeamResourceType, idColumn: AnyPgColumn, input: T) {
  const { includeReadOnlyInfo, includeResourcesWithoutTeam, selectTeamIds, ...query } = input;
  const where = teamVisibilityCondition(ctx, resourceType, idColumn, {
    includeResourcesWithoutTeam: includeResourcesWithoutTeam === true,
    selectTeamIds: parseSelectTeamIds(selectTeamIds),
  });
  const extraColumns = includeReadOnlyInfo ? { readOnly: readOnlyExpression(ctx, resourceType, idColumn) } : undefined;

  return { where, extraColumns, query };
}

import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { defineResource, relation, type RelationField } from '@/server/query/resource';
import type { TeamResourceType } from './team-registry';
import { teamAssignments, teams } from './teams.table';

/** Searchable and selectable fields of `team` (spec 3 "Team"). */
export const teamResource = defineResource({
  name: 'team',
  table: teams,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
  }),
});

/** One (team, resource) row, reached from a resource as `teamAssignments` (search only). */
const teamAssignmentResource = defineResource({
  name: 'teamAssignment',
  table: teamAssignments,
  fields: (t) => ({
    teamId: { kind: 'scalar', type: 'uuid', sql: t.teamId },
    readOnly: { kind: 'scalar', type: 'boolean', sql: t.readOnly },
    team: relation.one(teamResource, { on: (target) => eq(target.id, t.teamId), foreignKey: t.teamId }),
  }),
});

/**
 * The `teamAssignments` collection a team-capable resource declares in its field map, so that
 * `search=teamAssignments.team.id=<id>` (and `teamAssignments=NULL`: in no team) compile through
 * the query compiler. `id` is the resource's id column.
 */
export function teamAssignmentsField(resourceType: TeamResourceType, id: AnyPgColumn): RelationField {
  return relation.many(teamAssignmentResource, {
    on: (target) => and(eq(target.resourceType, resourceType), sql`${target.resourceId} = ${id}::text`)!,
  });
}

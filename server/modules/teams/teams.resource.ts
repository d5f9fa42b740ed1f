import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { defineResource, type RelationField } from '@/server/query/resource';
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
    team: {
      kind: 'relation',
      cardinality: 'one',
      target: () => teamResource as never,
      on: (self: PgTable, target: PgTable) => eq((target as typeof teams).id, (self as typeof teamAssignments).teamId),
      foreignKey: (self: PgTable) => (self as typeof teamAssignments).teamId,
    },
  }),
});

/**
 * The `teamAssignments` collection a team-capable resource declares in its field map, so that
 * `search=teamAssignments.team.id=<id>` (and `teamAssignments=NULL`: in no team) compile through
 * the query compiler. `idKey` is the property of the resource's id column (usually `id`).
 */
export function teamAssignmentsField(resourceType: TeamResourceType, idKey = 'id'): RelationField {
  return {
    kind: 'relation',
    cardinality: 'many',
    target: () => teamAssignmentResource as never,
    on: (self: PgTable, target: PgTable) => {
      const ta = target as typeof teamAssignments;
      const id = (self as unknown as Record<string, AnyPgColumn>)[idKey]!;

      return and(eq(ta.resourceType, resourceType), sql`${ta.resourceId} = ${id}::text`)!;
    },
  };
}

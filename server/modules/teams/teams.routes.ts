import { z } from '@hono/zod-openapi';
import { customerIdParam, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { userEmail } from '@/server/http/wire.schemas';
import { capitalize, teamResourceTypes } from './team-registry';
import {
  TeamAccessListSchema,
  TeamAssignmentItemSchema,
  TeamBodySchema,
  TeamListQueryExtension,
  TeamModificationSchema,
  TeamResourcesUpdateSchema,
  TeamSchema,
  TeamUpdateSchema,
} from './teams.schemas';

const teamIdQuery = z.object({
  customerId: customerIdParam,
  teamId: z.string().openapi({ description: 'The team', format: 'uuid' }),
});
/*
 * The spec's team-capable kinds. Modules plug theirs in at start-up (after these routes are declared), so
 * the document names the spec's list and says what a kind without its module answers.
 */
const kinds = teamResourceTypes;
const notManagedYet = 'A kind whose module this server does not have yet answers 404 `team.error.unknownResourceType`.';
const typeParam = (name: string, pattern: string, example: string, description: string) =>
  z.string().openapi({ param: { name, in: 'path' }, pattern, example, description });
/*
 * `/api/team/{segment}` is one path template of three operations (DELETE a team by id, GET `<resourceType>Assignments`,
 * PUT `update<ResourceType>Assignments`, as the spec writes them): one parameter name for the position, described per operation.
 */

export const listTeamsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/team',
    operationId: 'listTeams',
    tags: ['Teams'],
    summary: 'Teams, paged',
    description:
      'OWNER/ADMIN and users outside any team (with full access) see every team of the tenant; team members see their own teams.',
    request: { query: ScopedListQuerySchema.extend(TeamListQueryExtension) },
    responses: { 200: { description: 'A page of teams', ...json(pageOf(TeamSchema, 'TeamPage')) } },
  },
);

export const createTeamRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/team',
    operationId: 'createTeam',
    tags: ['Teams'],
    summary: 'Create a team',
    description: 'Names are unique per customer (409). Counts against the `TEAM` resource limit.',
    request: { query: z.object({ customerId: customerIdParam }), body: { required: true, ...json(TeamBodySchema) } },
    responses: { 201: { description: 'The created team', ...json(TeamSchema) }, ...conflictError },
  },
);

export const updateTeamRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/team',
    operationId: 'updateTeam',
    tags: ['Teams'],
    summary: 'Rename a team or change its comment',
    request: { query: teamIdQuery, body: { required: true, ...json(TeamUpdateSchema) } },
    responses: { 200: { description: 'The updated team', ...json(TeamSchema) }, ...conflictError },
  },
  { resourceIds: { 'query.teamId': 'team' } },
);

export const deleteTeamRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/team/{segment}',
    operationId: 'deleteTeam',
    tags: ['Teams'],
    summary: 'Delete a team and all its assignments',
    request: {
      query: z.object({ customerId: customerIdParam }),
      params: z.object({
        segment: z.string().openapi({ param: { name: 'segment', in: 'path' }, format: 'uuid', description: 'The team' }),
      }),
    },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.segment': 'team' } },
);

export const listTeamAssignmentsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/team/{segment}',
    operationId: 'listTeamAssignments',
    tags: ['Teams'],
    summary: 'Resources of one kind assigned to a team (`/api/team/{resourceType}Assignments`)',
    request: {
      params: z.object({
        segment: typeParam(
          'segment',
          '^[a-z][A-Za-z]*Assignments$',
          'userAssignments',
          `\`<resourceType>Assignments\`; resource types: ${kinds.join(', ')}. Any other type: 404 \`team.error.unknownResourceType\`; ${notManagedYet}`,
        ),
      }),
      query: teamIdQuery,
    },
    responses: { 200: { description: 'Assigned resource ids and their read-only flag', ...json(z.array(TeamAssignmentItemSchema)) } },
  },
  { resourceIds: { 'query.teamId': 'team' } },
);

export const listResourceTeamsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/team/{resourceType}/{resourceId}/assignments',
    operationId: 'listResourceTeams',
    tags: ['Teams'],
    summary: 'Teams a resource is assigned to',
    request: {
      params: z.object({
        resourceType: typeParam('resourceType', '^[A-Za-z]+$', 'user', `One of: ${kinds.join(', ')}. ${notManagedYet}`),
        resourceId: z.string().openapi({ param: { name: 'resourceId', in: 'path' } }),
      }),
      query: z.object({ customerId: customerIdParam }),
    },
    responses: { 200: { description: 'The teams, as `teamAccessList`', ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'path.resourceId': 'user' } },
);

export const updateTeamResourcesRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/team/{segment}',
    operationId: 'updateTeamResources',
    tags: ['Teams'],
    summary: 'Add resources of one kind to a team and remove others (`/api/team/update{ResourceType}Assignments`)',
    description:
      "Resources must belong to the team's customer (404). OWNER and ADMIN users cannot join a team (409 `team.error.ownerCannotJoin`).",
    request: {
      params: z.object({
        segment: typeParam(
          'segment',
          '^update[A-Z][A-Za-z]*Assignments$',
          'updateUserAssignments',
          `\`update<ResourceType>Assignments\`; resource types: ${kinds.map(capitalize).join(', ')}. ${notManagedYet}`,
        ),
      }),
      query: teamIdQuery,
      body: { required: true, ...json(TeamResourcesUpdateSchema) },
    },
    responses: {
      200: { description: "The team's resources of that kind afterwards", ...json(z.array(TeamAssignmentItemSchema)) },
      ...conflictError,
    },
  },
  { resourceIds: { 'query.teamId': 'team' } },
);

export const updateUserTeamAssignmentsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/user/updateTeamAssignments',
    operationId: 'updateUserTeamAssignments',
    tags: ['Users', 'Teams'],
    summary: 'Change the teams of a user',
    request: {
      query: z.object({ customerId: customerIdParam, email: userEmail.openapi({ description: 'The user' }) }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The user's teams afterwards", ...json(TeamAccessListSchema) }, ...conflictError },
  },
  { resourceIds: { 'body.removeFromTeamIds[]': 'team' } },
);

import { z } from '@hono/zod-openapi';
import { customerIdParam, json, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { teamIdsParam, TeamReadQueryExtension, SELECT_TEAM_IDS_EXEMPTION, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';
import { MessageGroupCreateSchema, MessageGroupSchema, MessageGroupUpdateSchema } from './message-groups.schemas';

/* Message groups exist in version 1 only (spec 1 "Versioning"). */
const BASE = '/api/messageGroup';
const tags = ['Message groups'];
const IdParams = z.object({ id: intIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The message group' }) });
const ScopeQuery = z.object({ customerId: customerIdParam });
const groupResponse = (description: string) => ({ description, ...json(MessageGroupSchema) });

export const listMessageGroupsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: BASE,
    operationId: 'listMessageGroups',
    tags,
    summary: 'Message groups (sub-channel groups), paged',
    description: 'Team visibility applies; `includeReadOnlyInfo=true` adds `readOnly`.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of message groups', ...json(pageOf(MessageGroupSchema, 'MessageGroupPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getMessageGroupRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: `${BASE}/{id}`,
    operationId: 'getMessageGroup',
    tags,
    summary: 'One message group',
    request: { params: IdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: groupResponse('The message group') },
  },
  { resourceIds: { 'path.id': 'messageGroup' } },
);

export const createMessageGroupRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'post',
    path: BASE,
    operationId: 'createMessageGroup',
    tags,
    summary: 'Create a message group in the selected customer',
    request: {
      query: ScopeQuery.extend({ teamIds: teamIdsParam }),
      body: { required: true, ...json(MessageGroupCreateSchema) },
    },
    responses: { 201: groupResponse('The created message group') },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateMessageGroupRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'put',
    path: `${BASE}/{id}`,
    operationId: 'updateMessageGroup',
    tags,
    summary: 'Update a message group',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(MessageGroupUpdateSchema) } },
    responses: { 200: groupResponse('The updated message group') },
  },
  { resourceIds: { 'path.id': 'messageGroup' } },
);

export const deleteMessageGroupRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'delete',
    path: `${BASE}/{id}`,
    operationId: 'deleteMessageGroup',
    tags,
    summary: 'Delete a message group and all its messages',
    description: 'Refused (409 `messageGroup.error.inUse`) while a channel has the group assigned.',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'path.id': 'messageGroup' } },
);

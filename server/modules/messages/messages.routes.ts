import { z } from '@hono/zod-openapi';
import { customerIdParam, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { channelBodyIds } from '@/server/modules/campaigns/campaigns.schemas';
import { MessageCreateSchema, MessageSchema, MessageUpdateSchema } from './messages.schemas';

/** Messages (sub-channels), spec 2 "Campaigns, message groups, messages": writes at version 1, reads at version 2. */

const tags = ['Messages'];
const IdParams = z.object({ id: intIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The message' }) });
const ScopeQuery = z.object({ customerId: customerIdParam });
const messageResponse = (description: string) => ({ description, ...json(MessageSchema) });

/** Every id a message's body may carry: the campaigns' and `contentId`. */
const bodyIds = { 'body.contentId': 'deviceContent', ...channelBodyIds } as const;

export const listMessagesRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/message',
    operationId: 'listMessages',
    tags,
    summary: 'Messages (sub-channels), paged',
    description:
      'Filter `messageGroupId`; `search`, `select`, `sort` as everywhere (default order: weight, then name). Search the assignments with `messageContentAssignments.contentId=…`, ' +
      '`messageContentGroupAssignments.contentGroupId`, `messageFileAssignments.fileId`, `messageFileFolderAssignments.fileFolderId`, `messageDeviceAssignments.deviceId`, ' +
      '`messageDeviceGroupAssignments.deviceGroupId`. Select-only: `deviceAssignments`, `deviceGroupAssignments`, `contentAssignments`, `contentGroupAssignments`, `fileFolderAssignments`, ' +
      '`fileAssignments` (`[{id, name}]`). Visible as its message group is (teams).',
    request: {
      query: ScopedListQuerySchema.extend({
        messageGroupId: intIdParam.optional().openapi({ description: 'Only the messages of this group' }),
      }),
    },
    responses: { 200: { description: 'A page of messages', ...json(pageOf(MessageSchema, 'MessagePage')) } },
  },
  { notResourceIds: { 'query.messageGroupId': 'a filter: another tenant’s message group selects nothing' } },
);

export const getMessageRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/message/{id}',
    operationId: 'getMessage',
    tags,
    summary: 'One message',
    description: 'Without `select`: every primitive field and the assignment lists.',
    request: {
      params: IdParams,
      query: ScopeQuery.extend({
        select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`; the assignment lists by name' }),
      }),
    },
    responses: { 200: messageResponse('The message') },
  },
  { resourceIds: { 'path.id': 'message' } },
);

export const createMessageRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/message',
    operationId: 'createMessage',
    tags,
    summary: 'Create a message (sub-channel) in a message group',
    description:
      '`version` must be `2.0`. Required by type: CONTENT contentId; CONTENT_DYNAMIC contentGroupAssignment; ASSETS_STATIC fileAssignment; ASSETS_DYNAMIC fileFolderAssignment; ' +
      'CONTENT_QUICK_FILTER contentQuickFilterId; ASSET_QUICK_FILTER fileQuickFilterId. deviceSelectionMode STATIC needs deviceAssignment, QUICK_FILTER deviceQuickFilterId; DYNAMIC ' +
      'without deviceGroupAssignment targets the root device folder (every screen its channel plays on). `validFrom` not after `validTo`. These rules between fields answer 400 ' +
      "`request.error.invalidCombination`. Every id must be the tenant's (404 otherwise).",
    request: { query: ScopeQuery, body: { required: true, ...json(MessageCreateSchema) } },
    responses: { 201: messageResponse('The created message') },
  },
  { resourceIds: { 'body.messageGroupId': 'messageGroup', ...bodyIds } },
);

export const updateMessageRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/message/{id}',
    operationId: 'updateMessage',
    tags,
    summary: 'Change a message',
    description:
      'Partial (spec 1 rule 2). Assignment objects add `assignments` and remove `removeIds`. `type`, `deviceSelectionMode`, `messageGroupId` and `version` are ignored. ' +
      '`validTo` not before `validFrom` (sent or stored; 400 `request.error.invalidCombination`).',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(MessageUpdateSchema) } },
    responses: { 200: messageResponse('The message afterwards') },
  },
  {
    resourceIds: { 'path.id': 'message', ...bodyIds },
    notResourceIds: { 'body.messageGroupId': 'immutable: an update ignores it (a message never moves to another group)' },
  },
);

export const deleteMessageRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/message/{id}',
    operationId: 'deleteMessage',
    tags,
    summary: 'Delete a message',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.id': 'message' } },
);

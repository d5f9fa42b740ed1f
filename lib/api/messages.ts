'use client';

import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { writableTeamsQuery } from '@/lib/api/team-reads';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Schemas } from '@/lib/api/types';
import { toUpdateBody } from '@/lib/api/update-body';
import type { MessageGroup, MessageGroupCreate } from '@/server/modules/message-groups/message-groups.schemas';
import type { Message, MessageType } from '@/server/modules/messages/messages.schemas';

export type { Message, MessageGroup, MessageType };

type MessageGroupListParams = ListRequest & { text: string };

/** Message groups (sub-channel groups) of the selected tenant, version 1 reads (spec 2). */
const messageGroupResource = defineResource({
  item: as<MessageGroup>(),
  key: 'messageGroups',
  list: '/api/messageGroup',
  listQuery: (params: MessageGroupListParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
    includeReadOnlyInfo: true,
  }),
  detail: '/api/messageGroup/{id}',
  teamCapable: true,
});

export const useMessageGroups = messageGroupResource.useList;

export type MessageListParams = ListRequest & { messageGroupId: number };

/** The messages (sub-channels) of one group, by weight (`/api/v2/message?messageGroupId=`). */
export const messageResource = defineResource({
  item: as<Message>(),
  key: 'messages',
  list: '/api/v2/message',
  listQuery: (params: MessageListParams) => ({
    messageGroupId: params.messageGroupId,
    select:
      'name,type,enabled,weight,saturation,validFrom,validTo,affectedDateRanges,contentId,contentName,fileFolderAssignments,contentGroupAssignments,fileAssignments,messageGroupId',
  }),
  detail: '/api/v2/message/{id}',
  // Content and media folders answer which sub-channels use them.
  invalidates: [['content'], ['fileFolders']],
});

export const useMessages = messageResource.useList;

/** What the group dialog saves. */
export type MessageGroupInput = Pick<MessageGroupCreate, 'name' | 'weight'>;

/** POST /api/messageGroup; `teamIds`: the group's teams (read-write), sent as the `teamIds` query. */
export function useCreateMessageGroup() {
  return messageGroupResource.useMutation(({ teamIds = [], ...input }: MessageGroupInput & { teamIds?: string[] }, { customerId }) =>
    ok(
      api.POST('/api/messageGroup', {
        params: {
          query: { ...writableTeamsQuery(teamIds), ...tenantQuery(customerId) },
        },
        body: input,
      }),
      as<MessageGroup>(),
    ),
  );
}

export function useUpdateMessageGroup() {
  return messageGroupResource.useMutation(({ id, input }: { id: number; input: MessageGroupInput }, { customerId }) =>
    ok(
      api.PUT('/api/messageGroup/{id}', { params: { path: { id }, query: tenantQuery(customerId) }, body: toUpdateBody(input) }),
      as<MessageGroup>(),
    ),
  );
}

/** Deleting a group deletes its messages: their lists are refreshed too. */
export function useDeleteMessageGroup() {
  const refreshMessages = messageResource.useInvalidate({ deleted: true });

  return messageGroupResource.useMutation(
    (id: number, { customerId }) => ok(api.DELETE('/api/messageGroup/{id}', { params: { path: { id }, query: tenantQuery(customerId) } })),
    {
      deletes: true,
      onSuccess: () => void refreshMessages(),
    },
  );
}

/**
 * A create or an update body, as the editor's draft builds it field by field (message-draft.ts). The editor checks
 * it with the API's own body schema before it is sent (`useDraftEditor`); that check cannot narrow the record's
 * type (the schemas take `unknown`: they drop null attributes first), hence the casts below.
 */
export type MessageBody = Record<string, unknown>;

export function useCreateMessage() {
  return messageResource.useMutation((body: MessageBody, { customerId }) =>
    // Cast: the draft's body is a record the server's schema checks (see MessageBody).
    ok(
      api.POST('/api/message', {
        params: { query: tenantQuery(customerId) },
        body: body as Schemas['MessageCreate'],
      }),
      as<Message>(),
    ),
  );
}

export function useUpdateMessage() {
  return messageResource.useMutation(({ id, body }: { id: number; body: MessageBody }, { customerId }) =>
    // Cast: the draft's body is a record the server's schema checks (see MessageBody).
    ok(
      api.PUT('/api/message/{id}', { params: { path: { id }, query: tenantQuery(customerId) }, body: body as Schemas['MessageUpdate'] }),
      as<Message>(),
    ),
  );
}

export function useDeleteMessage() {
  return messageResource.useMutation(
    (id: number, { customerId }) => ok(api.DELETE('/api/message/{id}', { params: { path: { id }, query: tenantQuery(customerId) } })),
    { deletes: true },
  );
}

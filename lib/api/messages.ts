'use client';

import { apiFetch } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { toUpdateBody } from '@/lib/api/update-body';
import type { MessageGroup } from '@/server/modules/message-groups/message-groups.schemas';
import type { Message, MessageType } from '@/server/modules/messages/messages.schemas';

export type { Message, MessageGroup, MessageType };

type MessageGroupListParams = ListRequest & { text: string };

/** Message groups (sub-channel groups) of the selected tenant, version 1 reads (spec 2). */
const messageGroupResource = defineResource<MessageGroup, MessageGroupListParams>({
  key: 'messageGroups',
  listPath: '/api/messageGroup',
  listQuery: (params) => ({ search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined, includeReadOnlyInfo: true }),
  detailPath: (id) => `/api/messageGroup/${encodeURIComponent(String(id))}`,
  teamCapable: true,
});

export const useMessageGroups = messageGroupResource.useList;

export type MessageListParams = ListRequest & { messageGroupId: number };

/** The messages (sub-channels) of one group, by weight (`/api/v2/message?messageGroupId=`). */
export const messageResource = defineResource<Message, MessageListParams>({
  key: 'messages',
  listPath: '/api/v2/message',
  listQuery: (params) => ({ messageGroupId: params.messageGroupId, select: 'name,type,enabled,weight,saturation,validFrom,validTo,affectedDateRanges,contentId,contentName,fileFolderAssignments,contentGroupAssignments,fileAssignments,messageGroupId' }),
  detailPath: (id) => `/api/v2/message/${encodeURIComponent(String(id))}`,
  // Content and media folders answer which sub-channels use them.
  invalidates: [['content'], ['fileFolders']],
});

export const useMessages = messageResource.useList;

export type MessageGroupInput = { name: string; weight?: number };

/** POST /api/messageGroup; `teamIds`: the group's teams (read-write), sent as the `teamIds` query. */
export function useCreateMessageGroup() {
  return messageGroupResource.useMutation(({ teamIds = [], ...input }: MessageGroupInput & { teamIds?: string[] }, { customerId }) =>
    apiFetch<MessageGroup>('/api/messageGroup', { method: 'POST', body: input, customerId, query: teamIds.length > 0 ? { teamIds: teamIds.map((id) => `${id}:false`).join(',') } : undefined }),
  );
}

export function useUpdateMessageGroup() {
  return messageGroupResource.useMutation(({ id, input }: { id: number; input: MessageGroupInput }, { customerId }) =>
    apiFetch<MessageGroup>(`/api/messageGroup/${id}`, { method: 'PUT', body: toUpdateBody(input), customerId }),
  );
}

/** Deleting a group deletes its messages: their lists are refreshed too. */
export function useDeleteMessageGroup() {
  const refreshMessages = messageResource.useInvalidate({ deleted: true });

  return messageGroupResource.useMutation((id: number, { customerId }) => apiFetch<void>(`/api/messageGroup/${id}`, { method: 'DELETE', customerId }), {
    deletes: true,
    onSuccess: () => void refreshMessages(),
  });
}

/** A create body (`version` 2.0 added here) or an update body; the form builds it. */
export type MessageBody = Record<string, unknown>;

export function useCreateMessage() {
  return messageResource.useMutation((body: MessageBody, { customerId }) => apiFetch<Message>('/api/message', { method: 'POST', body: { version: '2.0', ...body }, customerId }));
}

export function useUpdateMessage() {
  return messageResource.useMutation(({ id, body }: { id: number; body: MessageBody }, { customerId }) => apiFetch<Message>(`/api/message/${id}`, { method: 'PUT', body, customerId }));
}

export function useDeleteMessage() {
  return messageResource.useMutation((id: number, { customerId }) => apiFetch<void>(`/api/message/${id}`, { method: 'DELETE', customerId }), { deletes: true });
}

'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok, tenantQuery } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { writableTeamsQuery } from '@/lib/api/team-reads';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Schemas } from '@/lib/api/types';
import type { NotificationChannel } from '@/server/modules/notification-channels/notification-channels.schemas';

export type { NotificationChannel };

/** What the form sends: the create body of the document (every attribute, so an update sends it whole). */
export type NotificationChannelInput = Schemas['NotificationChannelCreate'];

type NotificationChannelListParams = ListRequest & { text: string };

/** Notification channels of alert rules in the selected tenant (spec 2), team read parameters included. */
const notificationChannelResource = defineResource({
  key: 'notificationChannels',
  list: '/api/alertRuleNotificationChannel',
  listQuery: (params: NotificationChannelListParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
  }),
  detail: '/api/alertRuleNotificationChannel/{channelId}',
  teamCapable: true,
});

export const useNotificationChannels = notificationChannelResource.useList;

/** POST; `teamIds`: the channel's teams (read-write), sent as the `teamIds` query. */
export function useCreateNotificationChannel() {
  return notificationChannelResource.useMutation(
    ({ teamIds = [], ...input }: NotificationChannelInput & { teamIds?: string[] }, { customerId }) =>
      ok(
        api.POST('/api/alertRuleNotificationChannel', {
          params: {
            query: { ...writableTeamsQuery(teamIds), ...tenantQuery(customerId) },
          },
          body: input,
        }),
      ),
  );
}

export function useUpdateNotificationChannel() {
  return notificationChannelResource.useMutation(({ id, input }: { id: number; input: NotificationChannelInput }, { customerId }) =>
    ok(
      api.PUT('/api/alertRuleNotificationChannel/{channelId}', {
        params: { path: { channelId: id }, query: tenantQuery(customerId) },
        body: input,
      }),
    ),
  );
}

export function useDeleteNotificationChannel() {
  return notificationChannelResource.useMutation(
    (id: number, { customerId }) =>
      ok(
        api.DELETE('/api/alertRuleNotificationChannel/{channelId}', {
          params: { path: { channelId: id }, query: tenantQuery(customerId) },
        }),
      ),
    { deletes: true },
  );
}

export type NotificationDelivery = Schemas['NotificationDelivery'];

/** PUT `{enabled}`: a channel a 410 disabled is enabled again (the API clears its reason). */
export function useSetNotificationChannelEnabled() {
  return notificationChannelResource.useMutation(({ id, isEnabled }: { id: number; isEnabled: boolean }, { customerId }) =>
    ok(
      api.PUT('/api/alertRuleNotificationChannel/{channelId}', {
        params: { path: { channelId: id }, query: tenantQuery(customerId) },
        body: { enabled: isEnabled },
      }),
    ),
  );
}

/** A WEBHOOK channel's new signing secret, answered once; the old one still signs for 24 hours. */
export function useRotateNotificationChannelSecret() {
  return notificationChannelResource.useMutation((id: number, { customerId }) =>
    ok(
      api.POST('/api/alertRuleNotificationChannel/{channelId}/rotateSecret', {
        params: { path: { channelId: id }, query: tenantQuery(customerId) },
      }),
    ),
  );
}

/** Sends a test now and answers the delivery with its first attempt; the delivery log changes with it. */
export function useTestNotificationChannel() {
  return notificationChannelResource.useMutation((id: number, { customerId }) =>
    ok(
      api.POST('/api/alertRuleNotificationChannel/{channelId}/test', {
        params: { path: { channelId: id }, query: tenantQuery(customerId) },
      }),
    ),
  );
}

/** A channel's deliveries, newest first, each with its attempts. */
export function useNotificationDeliveries(channelId: number | null, { page, size }: { page: number; size: number }) {
  const customerId = notificationChannelResource.useScope();

  return useQuery({
    queryKey: [...notificationChannelResource.keys.all, 'deliveries', { customerId, channelId, page, size }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/alertRuleNotificationChannel/{channelId}/deliveries', {
          params: { path: { channelId: channelId ?? 0 }, query: { page, size, ...tenantQuery(customerId) } },
          signal,
        }),
      ),
    enabled: channelId !== null,
    placeholderData: keepPreviousData,
  });
}

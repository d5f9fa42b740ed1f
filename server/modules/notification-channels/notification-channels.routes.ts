import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { teamIdsParam, TeamReadQueryExtension, SELECT_TEAM_IDS_EXEMPTION, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';
import {
  NotificationChannelCreateSchema,
  NotificationChannelSchema,
  NotificationChannelUpdateSchema,
  SimpleNotificationChannelListSchema,
} from './notification-channels.schemas';
import { NotificationDeliverySchema, RotatedSecretSchema } from './notification-deliveries.schemas';

/* Spec 2 "Alert rules, notification channels, alerts" and spec 5 §5: every operation needs TECHNICIAN. */
const BASE = '/api/alertRuleNotificationChannel';
const tags = ['Notification channels'];
const access = { minRole: 'TECHNICIAN', tenant: 'scoped' } as const;
const IdParams = z.object({
  channelId: intIdParam.openapi({ param: { name: 'channelId', in: 'path' }, description: 'The notification channel' }),
});
const ScopeQuery = z.object({ customerId: customerIdParam });
const channelResponse = (description: string) => ({ description, ...json(NotificationChannelSchema) });
const byId = { resourceIds: { 'path.channelId': 'notificationChannel' } } as const;

export const listNotificationChannelsRoute = defineRoute(
  access,
  {
    method: 'get',
    path: BASE,
    operationId: 'listNotificationChannels',
    tags,
    summary: 'Notification channels of alert rules, paged',
    description: 'Team visibility applies; by name unless `sort` says otherwise. `readOnly` is answered unless `select` leaves it out.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: {
      200: { description: 'A page of notification channels', ...json(pageOf(NotificationChannelSchema, 'NotificationChannelPage')) },
    },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const listSimpleNotificationChannelsRoute = defineRoute(access, {
  method: 'get',
  path: `${BASE}/simple`,
  operationId: 'listSimpleNotificationChannels',
  tags,
  summary: 'Id and name of every notification channel the caller sees',
  description: 'By name; at most 1 000 items.',
  request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search }) },
  responses: { 200: { description: 'The notification channels', ...json(SimpleNotificationChannelListSchema) } },
});

export const getNotificationChannelRoute = defineRoute(
  access,
  {
    method: 'get',
    path: `${BASE}/{channelId}`,
    operationId: 'getNotificationChannel',
    tags,
    summary: 'One notification channel',
    request: { params: IdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: channelResponse('The notification channel') },
  },
  byId,
);

export const createNotificationChannelRoute = defineRoute(
  access,
  {
    method: 'post',
    path: BASE,
    operationId: 'createNotificationChannel',
    tags,
    summary: 'Create a notification channel in the selected customer',
    description:
      'Names are unique in the customer (409 `notificationChannel.error.nameExists`). `comment` is required and may be empty. ' +
      '`notify` holds e-mail addresses for EMAIL, E.164 numbers for SMS, one http(s) URL for WEBHOOK, user ids of the tenant for USER_NOTIFICATION ' +
      '(400 `notificationChannel.error.unknownUser`); SMS needs the server’s SMS delivery (400 `notificationChannel.error.smsNotConfigured`). ' +
      'A WEBHOOK channel is answered its signing `secret` here, once.',
    request: {
      query: ScopeQuery.extend({ teamIds: teamIdsParam }),
      body: { required: true, ...json(NotificationChannelCreateSchema) },
    },
    responses: { 201: channelResponse('The created notification channel'), ...conflictError },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateNotificationChannelRoute = defineRoute(
  access,
  {
    method: 'put',
    path: `${BASE}/{channelId}`,
    operationId: 'updateNotificationChannel',
    tags,
    summary: 'Change a notification channel (partial)',
    description: 'Omitted or null attributes keep their value. The `notify` entries afterwards must be of the `channelType` afterwards.',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(NotificationChannelUpdateSchema) } },
    responses: { 200: channelResponse('The updated notification channel'), ...conflictError },
  },
  byId,
);

export const deleteNotificationChannelRoute = defineRoute(
  access,
  {
    method: 'delete',
    path: `${BASE}/{channelId}`,
    operationId: 'deleteNotificationChannel',
    tags,
    summary: 'Delete a notification channel',
    description: 'Refused (409 `notificationChannel.error.inUse`) while an alert rule uses the channel.',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  byId,
);

const DeliveryQuery = z.object({ customerId: customerIdParam, page: ListQuerySchema.shape.page, size: ListQuerySchema.shape.size });

export const testNotificationChannelRoute = defineRoute(
  access,
  {
    method: 'post',
    path: `${BASE}/{channelId}/test`,
    operationId: 'testNotificationChannel',
    tags,
    summary: 'Send a test notification now',
    description:
      'Queues a `test` delivery, makes its first attempt at once (at most 15 s) and answers the delivery with it; a failed ' +
      'first attempt is retried on the schedule of every delivery. A disabled channel is tried too (it stays disabled).',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 200: { description: 'The delivery and its first attempt', ...json(NotificationDeliverySchema) } },
  },
  byId,
);

export const listNotificationDeliveriesRoute = defineRoute(
  access,
  {
    method: 'get',
    path: `${BASE}/{channelId}/deliveries`,
    operationId: 'listNotificationDeliveries',
    tags,
    summary: "A channel's deliveries, newest first, each with its attempts",
    description: 'Each attempt: when, whether it succeeded, the status code, the latency and the error (spec 5 §5).',
    request: { params: IdParams, query: DeliveryQuery },
    responses: { 200: { description: 'A page of deliveries', ...json(pageOf(NotificationDeliverySchema, 'NotificationDeliveryPage')) } },
  },
  byId,
);

export const rotateNotificationChannelSecretRoute = defineRoute(
  access,
  {
    method: 'post',
    path: `${BASE}/{channelId}/rotateSecret`,
    operationId: 'rotateNotificationChannelSecret',
    tags,
    summary: "Replace a WEBHOOK channel's signing secret",
    description:
      'Answers the new secret once. For 24 hours every request carries two signatures, the new and the old (Standard Webhooks), ' +
      'so the receiver can switch without losing a delivery. 409 `notificationChannel.error.notWebhook` for other types.',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 200: { description: 'The new secret', ...json(RotatedSecretSchema) }, ...conflictError },
  },
  byId,
);

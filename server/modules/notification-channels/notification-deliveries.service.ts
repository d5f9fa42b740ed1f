import { v7 as uuidv7 } from 'uuid';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { assertWritable, teamAccessCondition } from '@/server/modules/teams';
import { createOutboundClient } from '@/server/outbound';
import { buildPage, parsePaging } from '@/server/query';
import { attemptDelivery, DELIVERY_LEASE_MS } from './delivery-worker';
import * as channelQueries from './notification-channels.queries';
import { notificationChannels, type NotificationChannelRow } from './notification-channels.table';
import * as q from './notification-deliveries.queries';
import type { NotificationDelivery, NotificationPayload } from './notification-deliveries.schemas';
import type { NotificationDeliveryAttemptRow, NotificationDeliveryRow } from './notification-deliveries.table';
import { deliveryTexts } from './notification-texts';
import { newWebhookSecret, sealSecret } from './webhook-signing';

const ENTITY = 'notificationChannel';
const auditChannel = auditOf(ENTITY, (row: NotificationChannelRow) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));
/** Spec 5 §5: after a rotation both signatures are sent for 24 hours. */
const PREVIOUS_SECRET_MS = 24 * 3600_000;

/**
 * POST /api/alertRuleNotificationChannel/{channelId}/test (spec 5 §5): queues a `test` delivery already claimed by this
 * request, makes its first attempt now (bounded by the 15 s delivery timeout) and answers the delivery with it. Later
 * attempts, if it failed, follow the retry schedule like any delivery's. A disabled channel is tried too: this is how
 * a person checks that a receiver which answered 410 is back (enabling it stays their choice).
 */
export async function testNotificationChannel(ctx: ServiceContext, input: { id: number }): Promise<NotificationDelivery> {
  const now = new Date();
  const token = uuidv7();
  const { channel, delivery } = await withTransaction(ctx.db, async (tx) => {
    const found = await visibleChannel(tx, ctx, input.id);
    const payload: NotificationPayload = {
      type: 'test',
      timestamp: now.toISOString(),
      data: { alertId: null, alertRuleId: null, alertRuleName: null, customerId: found.customerId },
    };
    const row = {
      id: uuidv7(),
      customerId: found.customerId,
      channelId: found.id,
      eventType: 'test' as const,
      payload,
      texts: deliveryTexts(payload),
      state: 'PENDING' as const,
      nextAttemptAt: now,
      createdAt: now,
      leaseToken: token,
      leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
    };
    await q.insertDeliveries(tx, [row]);

    return { channel: found, delivery: (await q.findDelivery(tx, row.id))! };
  });
  const outbound = createOutboundClient({ allowPrivateNetwork: ctx.config.allowPrivateNetworkFetch });
  await attemptDelivery(
    { db: ctx.db, config: ctx.config, log: ctx.log, outbound },
    { delivery, channel, token, now, evenIfDisabled: true },
  );

  return (await readDeliveries(ctx.db, [delivery.id]))[0]!;
}

/** GET /api/alertRuleNotificationChannel/{channelId}/deliveries: newest first, paged, each with its attempts. */
export async function listDeliveries(ctx: ServiceContext, input: { id: number; page?: string; size?: string }) {
  const channel = await visibleChannel(ctx.db, ctx, input.id);
  const paging = parsePaging({ page: input.page, size: input.size });
  const { rows, total } = await q.findDeliveryPage(ctx.db, {
    channelId: channel.id,
    offset: paging.page * paging.size,
    limit: paging.size,
  });

  return buildPage<NotificationDelivery>(await withAttempts(ctx.db, rows), paging, total, 'id,desc');
}

/**
 * POST /api/alertRuleNotificationChannel/{channelId}/rotateSecret: a new secret, answered once; the old one keeps
 * signing beside it for 24 hours (spec 5 §5), so a receiver can switch without losing a delivery.
 */
export async function rotateWebhookSecret(ctx: ServiceContext, input: { id: number }) {
  return withTransaction(ctx.db, async (tx) => {
    const row = await channelQueries.lockNotificationChannel(tx, ctx.scope, input.id);
    if (!row) throw new NotFoundError(ENTITY, input.id);
    await assertWritable(tx, ctx, ENTITY, String(row.id));
    if (row.channelType !== 'WEBHOOK')
      throw new ConflictError('notificationChannel.error.notWebhook', 'Only a WEBHOOK channel has a signing secret', {
        channelType: row.channelType,
      });
    const now = new Date();
    const secret = newWebhookSecret();
    const previousSecretUntil = new Date(now.getTime() + PREVIOUS_SECRET_MS);
    await channelQueries.updateNotificationChannel(tx, row, {
      secretSealed: sealSecret(ctx.config, row.id, secret),
      previousSecretSealed: row.secretSealed,
      previousSecretUntil,
      secretRotatedAt: now,
    });
    await auditChannel(tx, ctx, row, 'rotateSecret', `Signing secret of notification channel '${row.name}' rotated`, { secret: 'rotated' });

    return { secret, previousSecretValidUntil: previousSecretUntil.getTime() };
  });
}

/** The channel `id` the caller sees (scope and teams), or 404. */
async function visibleChannel(db: Executor, ctx: ServiceContext, id: number): Promise<NotificationChannelRow> {
  const row = await q.findVisibleChannel(db, { scope: ctx.scope, id, visible: teamAccessCondition(ctx, ENTITY, notificationChannels.id) });
  if (!row) throw new NotFoundError(ENTITY, id);

  return row;
}

async function readDeliveries(db: Executor, ids: string[]): Promise<NotificationDelivery[]> {
  const rows = await Promise.all(ids.map((id) => q.findDelivery(db, id)));

  return withAttempts(
    db,
    rows.filter((r) => r !== undefined),
  );
}

async function withAttempts(db: Executor, rows: NotificationDeliveryRow[]): Promise<NotificationDelivery[]> {
  const attempts = await q.findAttempts(
    db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<string, NotificationDeliveryAttemptRow[]>();
  for (const attempt of attempts) byDelivery.set(attempt.deliveryId, [...(byDelivery.get(attempt.deliveryId) ?? []), attempt]);

  return rows.map((row) => deliveryOf(row, byDelivery.get(row.id) ?? []));
}

/** A delivery on the wire: times in epoch ms, what is not known (null) left out. */
function deliveryOf(row: NotificationDeliveryRow, attempts: NotificationDeliveryAttemptRow[]): NotificationDelivery {
  return {
    id: row.id,
    channelId: row.channelId,
    type: row.eventType,
    state: row.state,
    createdAt: row.createdAt.getTime(),
    attemptCount: row.attempts,
    nextAttemptAt: row.state === 'PENDING' ? row.nextAttemptAt.getTime() : undefined,
    finishedAt: row.finishedAt?.getTime(),
    detail: row.detail ?? undefined,
    payload: row.payload,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at.getTime(),
      succeeded: a.succeeded,
      statusCode: a.statusCode ?? undefined,
      latencyMs: a.latencyMs,
      error: a.error ?? undefined,
      detail: a.detail ?? undefined,
    })),
  };
}

import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@/server/config';
import type { Database, Executor } from '@/server/db/client';
import { afterCommit, withTransaction } from '@/server/db/transaction';
import { enqueueMail, nudgeMailDelivery } from '@/server/modules/mail';
import type { OutboundClient } from '@/server/outbound';
import { DELIVERY_TIMEOUT_MS, postJson, type HttpOutcome } from './delivery-senders';
import * as q from './notification-deliveries.queries';
import type { NotificationDeliveryRow } from './notification-deliveries.table';
import type { NotificationChannelRow } from './notification-channels.table';
import { openSecret, signedHeaders } from './webhook-signing';

/*
 * Sends queued deliveries (spec 5 §5), in the way of the webhook executions (DECISIONS §7): the rows are the
 * durable queue, claimed with a lease (SKIP LOCKED) by the workers of every instance; the HTTP call runs outside any
 * transaction; then ONE transaction records the attempt and the next state, and only while the claim still owns the
 * row. A worker that dies after sending and before recording leaves the row to the next claim once the lease ends:
 * the receiver may get that attempt twice, with the same `webhook-id` (at-least-once); a recorded attempt is never
 * sent again. EMAIL and USER_NOTIFICATION attempts write inside that transaction (the mail outbox, the bell), so
 * they happen exactly once.
 */

/** After the first failed attempt, then each further one (spec 5 §5); after the last, the delivery FAILED. */
export const RETRY_SCHEDULE_MS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600].map((s) => s * 1000);
const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** How long a claim owns a delivery: well past the 15 s an attempt may take. */
export const DELIVERY_LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 16;

export type DeliveryDeps = {
  db: Database;
  config: Config;
  log: Logger;
  /** The guarded client (spec 5 §1) for WEBHOOK and SMS. */
  outbound: OutboundClient;
  /** Success is a 2xx within this (spec 5 §5: 15 s); tests shorten it. */
  timeoutMs?: number;
  concurrency?: number;
  /** False: only `drain` runs it, never a queued notification's wake-up (tests that drive the clock). */
  canBeWoken?: boolean;
};

export type DeliveryWorker = {
  /** Claims and sends what is due at `now` (default: the clock) until nothing is; answers how many attempts it made. */
  drain: (now?: Date) => Promise<number>;
  /** Starts a drain unless one runs (then that one looks again when it ends). */
  wake: () => void;
  stop: () => void;
};

const workers = new Set<DeliveryWorker>();

/** Wakes this process's delivery workers (after a delivery was committed). */
export function wakeDeliveryWorkers(): void {
  for (const worker of workers) worker.wake();
}

export function createDeliveryWorker(deps: DeliveryDeps): DeliveryWorker {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  let draining: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  /**
   * Claims only as many deliveries as there are free slots and claims again whenever one ends, so a receiver that
   * takes its 15 s holds one slot, not the others; ends when nothing is due and nothing runs.
   */
  const drainOnce = async (now: Date | undefined): Promise<number> => {
    let sent = 0;
    const running = new Set<Promise<void>>();
    for (;;) {
      if (!stopped && running.size < concurrency) {
        const at = now ?? new Date();
        const token = uuidv7();
        const claimed = await q.claimDueDeliveries(deps.db, {
          now: at,
          leaseMs: DELIVERY_LEASE_MS,
          limit: concurrency - running.size,
          token,
        });
        const channels = new Map((await q.findChannelsByIds(deps.db, [...new Set(claimed.map((d) => d.channelId))])).map((c) => [c.id, c]));
        for (const delivery of claimed) {
          const attempt: Promise<void> = attemptDelivery(deps, {
            delivery,
            channel: channels.get(delivery.channelId),
            token,
            now: at,
          }).finally(() => running.delete(attempt));
          running.add(attempt);
        }
        sent += claimed.length;
        // Look again at once: more may be due (with every slot taken, the next look waits for one to free).
        if (claimed.length > 0) continue;
      }
      if (running.size === 0) return sent;
      await Promise.race(running);
    }
  };

  const worker: DeliveryWorker = {
    drain(now) {
      if (draining) {
        again = true;

        return draining;
      }
      draining = (async () => {
        let sent = 0;
        try {
          do {
            again = false;
            sent += await drainOnce(now);
          } while (again && !stopped);
        } finally {
          draining = undefined;
        }

        return sent;
      })();

      return draining;
    },
    wake() {
      if (stopped) return;
      worker.drain().catch((err: unknown) => deps.log.error({ err }, 'notification deliveries could not be claimed'));
    },
    stop() {
      stopped = true;
      workers.delete(worker);
    },
  };
  if (deps.canBeWoken !== false) workers.add(worker);

  return worker;
}

/** What an attempt did, before it is recorded. `write` runs in the recording transaction (mail outbox, bell). */
type Outcome = HttpOutcome & { detail?: string; sentTo?: string[]; write?: (tx: Executor) => Promise<string> };

/**
 * One attempt of a claimed delivery: sends (outside any transaction), then records it. `evenIfDisabled`: the test
 * endpoint's first attempt, which is how a person checks a receiver that answered 410 is back. Never throws.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  input: {
    delivery: NotificationDeliveryRow;
    channel: NotificationChannelRow | undefined;
    token: string;
    now: Date;
    evenIfDisabled?: boolean;
  },
): Promise<void> {
  const { delivery, channel, token, now } = input;
  try {
    if (!channel) return;
    if (!channel.enabled && !input.evenIfDisabled) {
      await finishUnsent(deps.db, {
        id: delivery.id,
        token,
        now,
        detail: `Not sent: the channel is disabled (${channel.disabledReason ?? 'no reason given'})`,
      });

      return;
    }
    const outcome = await send(deps, { delivery, channel, now });
    await record(deps, { delivery, channel, token, now, outcome });
  } catch (err) {
    // The lease running out hands the delivery to the next claim.
    deps.log.error({ err, deliveryId: delivery.id }, 'notification delivery attempt not recorded');
  }
}

async function send(
  deps: DeliveryDeps,
  input: { delivery: NotificationDeliveryRow; channel: NotificationChannelRow; now: Date },
): Promise<Outcome> {
  const { delivery, channel } = input;
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  switch (channel.channelType) {
    case 'WEBHOOK': {
      const current = openSecret(deps.config, channel.id, channel.secretSealed);
      if (!current)
        return {
          succeeded: false,
          latencyMs: 0,
          error: "The channel's signing secret cannot be read (AUTH_SECRET changed?): rotate the secret",
        };
      const previous =
        channel.previousSecretUntil && channel.previousSecretUntil > input.now
          ? openSecret(deps.config, channel.id, channel.previousSecretSealed)
          : undefined;
      const body = JSON.stringify(delivery.payload);
      const headers = signedHeaders({ id: delivery.id, now: input.now, body, secrets: previous ? [current, previous] : [current] });

      return postJson(deps.outbound, { url: channel.notify[0] ?? '', body, headers, timeoutMs });
    }
    case 'SMS':
      return sendSms(deps, { delivery, channel, timeoutMs });
    case 'EMAIL':
      return { succeeded: true, latencyMs: 0, write: (tx) => queueMails(tx, { delivery, channel }) };
    case 'USER_NOTIFICATION':
      return { succeeded: true, latencyMs: 0, write: (tx) => notifyUsers(tx, { delivery, channel }) };
    default:
      return { succeeded: false, latencyMs: 0, error: `Unknown channel type ${channel.channelType}` };
  }
}

/** SMS: `{to, text}` to the gateway, one request per number; numbers sent to already are skipped on a retry. */
async function sendSms(
  deps: DeliveryDeps,
  input: { delivery: NotificationDeliveryRow; channel: NotificationChannelRow; timeoutMs: number },
): Promise<Outcome> {
  const gateway = deps.config.sms.webhookUrl;
  if (!gateway) return { succeeded: false, latencyMs: 0, error: 'SMS delivery is not configured on this server (SMS_WEBHOOK_URL)' };
  const sentTo = [...input.delivery.sentTo];
  let latencyMs = 0;
  let failure: HttpOutcome | undefined;
  let lastStatus: number | undefined;
  for (const to of input.channel.notify.filter((n) => !sentTo.includes(n))) {
    const outcome = await postJson(deps.outbound, {
      url: gateway,
      body: JSON.stringify({ to, text: input.delivery.texts.sms }),
      timeoutMs: input.timeoutMs,
    });
    latencyMs += outcome.latencyMs;
    lastStatus = outcome.statusCode ?? lastStatus;
    if (outcome.succeeded) sentTo.push(to);
    else failure ??= outcome;
  }
  const detail = `${sentTo.length} of ${input.channel.notify.length} numbers sent to`;
  if (failure) return { ...failure, latencyMs, sentTo, detail };

  return { succeeded: true, statusCode: lastStatus, latencyMs, sentTo, detail };
}

/** EMAIL: one message per address in the mail outbox (server/modules/mail), which sends it with its own retries. */
async function queueMails(tx: Executor, input: { delivery: NotificationDeliveryRow; channel: NotificationChannelRow }): Promise<string> {
  for (const to of input.channel.notify)
    await enqueueMail(tx, {
      customerId: input.delivery.customerId,
      to,
      subject: input.delivery.texts.emailSubject,
      text: input.delivery.texts.emailBody,
      kind: 'ALERT_NOTIFICATION',
    });
  afterCommit(tx, nudgeMailDelivery);

  return `${input.channel.notify.length} e-mail(s) queued in the mail outbox`;
}

/** USER_NOTIFICATION: a bell entry for each named user who still belongs to the channel's customer. */
async function notifyUsers(tx: Executor, input: { delivery: NotificationDeliveryRow; channel: NotificationChannelRow }): Promise<string> {
  const { delivery, channel } = input;
  const userIds = await q.findUsersOf(tx, { customerId: channel.customerId, ids: channel.notify });
  const added = await q.insertUserNotifications(
    tx,
    userIds.map((userId) => ({
      id: uuidv7(),
      customerId: delivery.customerId,
      userId,
      channelId: channel.id,
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      title: delivery.texts.emailSubject,
      text: delivery.texts.emailBody,
      payload: delivery.payload,
      createdAt: delivery.createdAt,
    })),
  );
  const gone = channel.notify.length - userIds.length;

  return `${added} user(s) notified${gone > 0 ? `; ${gone} named user(s) no longer exist` : ''}`;
}

/** Records the attempt and the delivery's next state in one transaction, if the claim still owns the delivery. */
async function record(
  deps: DeliveryDeps,
  input: { delivery: NotificationDeliveryRow; channel: NotificationChannelRow; token: string; now: Date; outcome: Outcome },
): Promise<void> {
  const { outcome, now } = input;
  await withTransaction(deps.db, async (tx) => {
    const owned = await q.lockOwnedDelivery(tx, { id: input.delivery.id, token: input.token });
    if (!owned) return;
    const detail = outcome.write ? await outcome.write(tx) : outcome.detail;
    const attempt = owned.attempts + 1;
    await q.insertAttempt(tx, {
      deliveryId: owned.id,
      attempt,
      at: now,
      succeeded: outcome.succeeded,
      statusCode: outcome.statusCode ?? null,
      latencyMs: outcome.latencyMs,
      error: outcome.error?.slice(0, 500) ?? null,
      detail: detail ?? null,
    });
    const isGone = outcome.statusCode === 410 && input.channel.channelType === 'WEBHOOK';
    if (isGone) await q.disableChannel(tx, { id: input.channel.id, reason: `The receiver answered 410 Gone on ${now.toISOString()}` });
    const isLast = attempt >= MAX_ATTEMPTS;
    const finished = outcome.succeeded || isGone || isLast;
    await q.updateDelivery(tx, owned.id, {
      attempts: attempt,
      state: outcome.succeeded ? 'DELIVERED' : finished ? 'FAILED' : 'PENDING',
      nextAttemptAt: finished ? owned.nextAttemptAt : new Date(now.getTime() + RETRY_SCHEDULE_MS[attempt - 1]!),
      leaseToken: null,
      leaseUntil: null,
      sentTo: outcome.sentTo ?? owned.sentTo,
      finishedAt: finished ? now : null,
      detail: outcome.succeeded
        ? null
        : isGone
          ? 'The receiver answered 410 Gone: the channel was disabled'
          : isLast
            ? `Gave up after ${attempt} attempts`
            : null,
    });
  });
}

/** Ends a delivery that is not sent (its channel is disabled), without an attempt. */
async function finishUnsent(db: Database, input: { id: string; token: string; now: Date; detail: string }): Promise<void> {
  await withTransaction(db, async (tx) => {
    if (!(await q.lockOwnedDelivery(tx, { id: input.id, token: input.token }))) return;
    await q.updateDelivery(tx, input.id, {
      state: 'FAILED',
      leaseToken: null,
      leaseUntil: null,
      finishedAt: input.now,
      detail: input.detail,
    });
  });
}

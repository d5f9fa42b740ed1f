import { v7 as uuidv7 } from 'uuid';
import { secondsUntilWindowEnds } from '@/server/auth/failure-limit';
import { verifyWebhookKeyJwt } from '@/server/auth/jwt';
import type { Config } from '@/server/config';
import type { ServiceContext } from '@/server/context/service-context';
import type { Database } from '@/server/db/client';
import { createGroupCommit, type GroupCommit } from '@/server/db/group-commit';
import { afterCommit } from '@/server/db/transaction';
import { AppError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '@/server/errors';
import { assertNoNul, assertSafeJson } from '@/server/http/hostile-input';
import { parseXmlDocument } from '@/server/modules/datasources';
import { teamAccessCondition } from '@/server/modules/teams';
import { wakeWebhookExecutors } from './webhook-executor';
import { TRIGGERS_PER_SECOND } from './webhook-limits';
import * as q from './webhooks.queries';
import * as tq from './webhook-triggers.queries';
import type { TriggerAnswer } from './webhooks.schemas';
import { webhookActions, type ExecutionActor, type WebhookActionRow } from './webhooks.table';

export type TriggerOutcome = { status: 202 | 200 | 404; answer: TriggerAnswer };

/**
 * One trigger (spec 3 "Authentication and trigger endpoints", spec 5 §4): the key is checked (signature, audience,
 * scope, not deleted), counted (50 a second, shared by every instance), the action found by event id in the key's
 * customer and, when enabled, its execution queued: the row is the queue entry, committed before the answer, and this
 * instance's executor is woken at once (another instance's tick takes it when this one cannot). The database work of
 * triggers arriving together is one statement (`acceptTriggers` through a group commit); each gets its own answer.
 */
export async function triggerWebhook(
  deps: { db: Database; config: Config },
  input: { key: string | undefined; payload: Record<string, unknown>; queryEventId?: string },
): Promise<TriggerOutcome> {
  const claims = input.key ? await verifyWebhookKeyJwt(input.key.trim()) : undefined;
  // Our keys' ids are uuids (the statement casts them): anything else is no key of ours.
  if (!claims || !claims.scope.includes('WEBHOOK_CALL') || !UUID.test(claims.jti))
    throw invalidKey('A valid webhook API key is required (header X-Webhook-Apikey, or the apiKey query parameter)');
  const eventId = eventIdOf(input.payload, input.queryEventId);
  const executionId = uuidv7();
  const accepted = await acceptanceOf(deps).submit({
    keyId: claims.jti,
    customerId: claims.customer_id,
    eventId,
    executionId,
    payload: input.payload,
  });
  if (!accepted.key) throw invalidKey('The webhook API key was revoked');
  if (accepted.claim.failures > TRIGGERS_PER_SECOND)
    throw new TooManyRequestsError(
      secondsUntilWindowEnds(accepted.claim.windowStart, 1),
      `A webhook key answers at most ${TRIGGERS_PER_SECOND} triggers a second`,
    );
  if (accepted.key.customerRestricted) throw new ForbiddenError('The customer account is restricted', 'auth.error.customerRestricted');
  const { action } = accepted;
  if (!action)
    return { status: 404, answer: { message: `No webhook action with the event id '${eventId}'`, errorReason: 'unknownEventId' } };
  if (!action.enabled)
    return {
      status: 200,
      answer: { message: `The webhook action '${action.name}' is disabled: nothing was run`, errorReason: 'disabled' },
    };

  return { status: 202, answer: { message: `Queued: ${action.name}`, errorReason: null, executionId } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The most triggers of one statement. Measured on PostgreSQL: 1 trigger ~1.8 ms, 10 ~2.1 ms, 50 ~4.8 ms; the bound
 * keeps the worst case (every payload at its 256 KiB limit) to a 16 MiB parameter.
 */
const MAX_BATCH = 64;

/** The group commit of each database's triggers. */
const acceptances = new WeakMap<Database, GroupCommit<tq.TriggerRequest, tq.TriggerAcceptance>>();

/**
 * The group commit of `deps.db`. A quarter of the pool runs trigger statements at once (as many as the executors
 * hold): the rest stays for everything else the process does while triggers flood in.
 */
function acceptanceOf(deps: { db: Database; config: Config }): GroupCommit<tq.TriggerRequest, tq.TriggerAcceptance> {
  let acceptance = acceptances.get(deps.db);
  if (!acceptance) {
    acceptance = createGroupCommit(
      async (triggers) => {
        const accepted = await tq.acceptTriggers(deps.db, { triggers, limit: TRIGGERS_PER_SECOND });
        // The statement committed the execution rows on its own: the executors can take them now.
        if (accepted.some((a) => a.queued)) wakeWebhookExecutors();

        return accepted;
      },
      { maxBatch: MAX_BATCH, maxInFlight: Math.max(1, Math.floor(deps.config.databasePoolSize / 4)) },
    );
    acceptances.set(deps.db, acceptance);
  }

  return acceptance;
}

/**
 * The console's "Try it" (POST /api/webhookEvent/actions/{actionId}/test): the trigger of the action with `payload`,
 * by the signed-in user, answered like a trigger (a disabled action runs nothing) and run as that user.
 */
export async function tryWebhookAction(
  ctx: ServiceContext,
  input: { id: number; payload: Record<string, unknown> },
): Promise<TriggerOutcome> {
  const action = await q.findVisibleAction(ctx.db, {
    scope: ctx.scope,
    id: input.id,
    visible: teamAccessCondition(ctx, 'webhookEventAction', webhookActions.id),
  });
  if (!action) throw new NotFoundError('webhookEventAction', input.id);
  if (!action.enabled)
    return {
      status: 200,
      answer: { message: `The webhook action '${action.name}' is disabled: nothing was run`, errorReason: 'disabled' },
    };
  const executionId = await queueExecution(ctx.db, {
    action,
    actor: ctx.actor,
    apiKeyId: null,
    triggeredBy: ctx.actor.email,
    eventId: action.eventId,
    payload: { event_id: action.eventId, ...input.payload },
  });

  return { status: 202, answer: { message: `Queued: ${action.name}`, errorReason: null, executionId } };
}

/** Records the execution (the queue entry) and wakes this process's executors once it is committed. */
async function queueExecution(
  db: Database,
  input: {
    action: WebhookActionRow;
    actor: ExecutionActor;
    apiKeyId: string | null;
    triggeredBy: string;
    eventId: string;
    payload: Record<string, unknown>;
  },
): Promise<string> {
  const id = uuidv7();
  // One statement, committed on its own (no BEGIN and COMMIT round trips on the trigger's path), unless `db` is a
  // caller's transaction: the executors wake once what was written is committed either way.
  await q.insertExecution(db, {
    id,
    customerId: input.action.customerId,
    actionId: input.action.id,
    eventId: input.eventId,
    apiKeyId: input.apiKeyId,
    triggeredBy: input.triggeredBy,
    actor: input.actor,
    payload: input.payload,
  });
  afterCommit(db, wakeWebhookExecutors);

  return id;
}

/** 401 with the key's own challenge (never `Bearer`: an access token is no key). */
function invalidKey(message: string): AppError {
  return new AppError(401, 'webhook.error.invalidKey', message, undefined, { 'WWW-Authenticate': 'Webhook-Apikey' });
}

/** `event_id`, `eventId`, then the query's `eventId`: a non-empty string (400 otherwise). */
function eventIdOf(payload: Record<string, unknown>, queryEventId: string | undefined): string {
  const value = payload.event_id ?? payload.eventId ?? queryEventId;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ValidationError(
      'webhook.error.eventIdRequired',
      'Name the event: `event_id` (or `eventId`) in the payload, or the `eventId` query parameter',
      {
        parameter: 'event_id',
      },
    );

  return value.trim();
}

/** A JSON payload: an object (400 otherwise). */
export function jsonPayload(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('webhook.error.payload', 'The trigger payload is a JSON object', { target: 'json' });

  return body as Record<string, unknown>;
}

/** An XML payload (no entity expansion): the root element's children are the payload fields. */
export function xmlPayload(bytes: Uint8Array): Record<string, unknown> {
  let tree: unknown;
  try {
    tree = parseXmlDocument(Buffer.from(bytes), { contentType: 'application/xml' });
  } catch (error) {
    throw new ValidationError(
      'webhook.error.payload',
      `The XML payload cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      {
        target: 'body',
      },
    );
  }
  const roots = tree && typeof tree === 'object' ? Object.entries(tree).filter(([name]) => !name.startsWith('?')) : [];
  const root = roots.length === 1 ? roots[0]![1] : tree;

  return jsonPayload(root);
}

/** The GET form's `payload`: Base64 (standard or URL-safe) of a JSON object. */
export function base64Payload(encoded: string): Record<string, unknown> {
  const text = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('webhook.error.payload', 'The payload parameter is Base64 of a JSON object', { parameter: 'payload' });
  }
  assertSafeJson('payload', value);
  assertNoNul('payload', value);

  return jsonPayload(value);
}

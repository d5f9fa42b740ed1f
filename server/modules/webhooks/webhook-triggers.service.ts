import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { claimFailureSlotStatement, secondsUntilWindowEnds } from '@/server/auth/failure-limit';
import { verifyWebhookKeyJwt } from '@/server/auth/jwt';
import type { ApiKeyActor } from '@/server/context/actor';
import type { Config } from '@/server/config';
import type { ServiceContext } from '@/server/context/service-context';
import type { Database } from '@/server/db/client';
import { afterCommit } from '@/server/db/transaction';
import { AppError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '@/server/errors';
import { assertNoNul, assertSafeJson } from '@/server/http/hostile-input';
import { parseXmlDocument } from '@/server/modules/datasources';
import { teamAccessCondition } from '@/server/modules/teams';
import { wakeWebhookExecutors } from './webhook-executor';
import { TRIGGERS_PER_SECOND } from './webhook-limits';
import * as q from './webhooks.queries';
import type { TriggerAnswer } from './webhooks.schemas';
import { webhookActions, type ExecutionActor, type WebhookActionRow } from './webhooks.table';

export type TriggerOutcome = { status: 202 | 200 | 404; answer: TriggerAnswer };

/**
 * One trigger (spec 3 "Authentication and trigger endpoints", spec 5 §4): the key is checked (signature, audience,
 * scope, not deleted), counted (50 a second, shared by every instance), the action found by event id in the key's
 * customer and, when enabled, its execution queued: the row is the queue entry, committed before the answer, and this
 * instance's executor is woken at once (another instance's tick takes it when this one cannot).
 */
export async function triggerWebhook(
  deps: { db: Database; config: Config },
  input: { key: string | undefined; payload: Record<string, unknown>; queryEventId?: string },
): Promise<TriggerOutcome> {
  const claims = input.key ? await verifyWebhookKeyJwt(input.key.trim()) : undefined;
  if (!claims || !claims.scope.includes('WEBHOOK_CALL'))
    throw invalidKey('A valid webhook API key is required (header X-Webhook-Apikey, or the apiKey query parameter)');
  const eventId = eventIdOf(input.payload, input.queryEventId);
  // The key as a restricted team member: what it may trigger when its row says it is restricted.
  const asRestricted: ApiKeyActor = {
    kind: 'apiKey',
    apiKeyId: claims.jti,
    name: '',
    customerId: claims.customer_id,
    customerName: '',
    scopes: ['WEBHOOK_CALL'],
    restricted: true,
  };
  const executionId = uuidv7();
  const accepted = await q.acceptTrigger(deps.db, {
    keyId: claims.jti,
    customerId: claims.customer_id,
    eventId,
    claim: claimFailureSlotStatement({ subject: `webhook.key:${claims.jti}`, limit: TRIGGERS_PER_SECOND, windowSeconds: 1 }),
    limit: TRIGGERS_PER_SECOND,
    visibleToRestrictedKey: teamAccessCondition({ actor: asRestricted }, 'webhookEventAction', webhookActions.id) ?? sql`true`,
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
  // The statement committed the execution row on its own: the executors can take it now.
  wakeWebhookExecutors();

  return { status: 202, answer: { message: `Queued: ${action.name}`, errorReason: null, executionId } };
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

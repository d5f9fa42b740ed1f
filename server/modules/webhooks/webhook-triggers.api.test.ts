import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures } from '@/server/auth/failure-limit.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { customers } from '@/server/tenant/customers.table';
import type { WebhookExecutor } from './webhook-executor';
import { testExecutor } from './webhooks.test-kit';
import { webhookExecutions } from './webhooks.table';

/*
 * Triggers arriving together share one statement (the group commit of webhook-triggers.service.ts); each must still get
 * the answer it would get alone (spec 5 §4). The requests below are sent at once, so they meet in the same batches.
 */

const ACTIONS = '/api/webhookEvent/actions';
const KEYS = '/api/webhooks/apikey';
const TRIGGER = '/public-api/integration/webhooks';
/** The expected status of a trigger of the key near its limit: 202 or 429 (two of each). */
const LIMITED = -1;

let t: TestContext;
let customerId: number;
let owner: string;
let technician: string;
let executor: WebhookExecutor;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  executor = testExecutor(t);
});
afterAll(async () => {
  executor.stop();
  await t.close();
});

async function newKey(token = technician, query = '') {
  const res = await t.request('POST', `${KEYS}${query}`, { token, json: { name: `key ${Math.random()}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string; token: string; name: string };
}

async function newAction(body: Record<string, unknown>, token = technician, query = '') {
  const res = await t.request('POST', `${ACTIONS}${query}`, { token, json: { name: `action ${body.eventId}`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; eventId: string };
}

const trigger = (key: string, eventId: string, extra: Record<string, unknown> = {}) =>
  t.request('POST', TRIGGER, { json: { event_id: eventId, ...extra }, headers: { 'x-webhook-apikey': key } });

/** The key's rate-limit window at `failures`, ending a minute from now (so the test does not race the clock). */
async function windowAt(keyId: string, failures: number): Promise<void> {
  await t.db
    .insert(authFailures)
    .values({ subject: `webhook.key:${keyId}`, failures, windowStart: sql`now() + interval '1 minute'` })
    .onConflictDoUpdate({ target: authFailures.subject, set: { failures, windowStart: sql`now() + interval '1 minute'` } });
}

describe('triggers arriving together (group commit)', () => {
  it('answers each trigger of a batch as it would be answered alone, and queues exactly the accepted ones', async () => {
    const team = await t.request('POST', '/api/team', { token: owner, json: { name: `Batch team ${Math.random()}` } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const enabled = await newAction({ eventId: 'batch-on', action: 'REFRESH_DATASOURCE_ALL', enabled: true });
    await newAction({ eventId: 'batch-off', action: 'REFRESH_DATASOURCE_ALL' });
    const ofTeam = await newAction(
      { eventId: 'batch-team', action: 'REFRESH_DATASOURCE_ALL', enabled: true },
      owner,
      `?teamIds=${team.body.id}:false`,
    );

    const good = await newKey();
    const revoked = await newKey();
    expect((await t.request('DELETE', `${KEYS}/${revoked.id}`, { token: technician })).status).toBe(204);
    const restricted = await newKey();
    const put = await t.request('PUT', `${KEYS}/${restricted.id}`, {
      token: owner,
      json: { name: 'Restricted', restricted: true, teamAccessList: { teams: [{ id: team.body.id, readOnly: false }] } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Two slots left in this key's window: two of its four triggers get them (which two: the order they reach the
    // statement, as for requests one after the other), the other two are refused.
    const nearLimit = await newKey();
    await windowAt(nearLimit.id, 48);
    const closedCustomer = (await t.factories.customer()).id;
    const closedKey = await newKey((await t.actor('TECHNICIAN', { customerId: closedCustomer })).token);
    await newAction(
      { eventId: 'batch-on', action: 'REFRESH_DATASOURCE_ALL', enabled: true },
      (await t.actor('OWNER', { customerId: closedCustomer })).token,
    );
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, closedCustomer));

    const cases = [
      { key: good.token, eventId: 'batch-on', status: 202 },
      { key: revoked.token, eventId: 'batch-on', status: 401 },
      { key: good.token, eventId: 'batch-off', status: 200, reason: 'disabled' },
      { key: good.token, eventId: 'nobody', status: 404, reason: 'unknownEventId' },
      { key: restricted.token, eventId: 'batch-team', status: 202 },
      // A restricted key sees only its teams' actions.
      { key: restricted.token, eventId: 'batch-on', status: 404, reason: 'unknownEventId' },
      { key: nearLimit.token, eventId: 'batch-on', status: LIMITED },
      { key: nearLimit.token, eventId: 'batch-on', status: LIMITED },
      { key: nearLimit.token, eventId: 'batch-on', status: LIMITED },
      { key: nearLimit.token, eventId: 'batch-on', status: LIMITED },
      { key: closedKey.token, eventId: 'batch-on', status: 403 },
      { key: good.token, eventId: 'batch-on', status: 202 },
    ];
    const answers = await Promise.all(cases.map((c, i) => trigger(c.key, c.eventId, { n: i })));
    expect(answers.map((a, i) => (cases[i]!.status === LIMITED ? LIMITED : a.status))).toEqual(cases.map((c) => c.status));
    answers.forEach((a, i) => {
      if (cases[i]!.reason) expect(a.body.errorReason).toBe(cases[i]!.reason);
    });
    const limited = answers.filter((_, i) => cases[i]!.status === LIMITED);
    expect(limited.map((a) => a.status).sort()).toEqual([202, 202, 429, 429]);
    for (const refused of limited.filter((a) => a.status === 429)) expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    // Exactly the accepted ones were queued, each with its own payload, action and key.
    const accepted = answers.flatMap((a, i) => (a.status === 202 ? [{ id: a.body.executionId as string, i }] : []));
    const rows = await t.db
      .select()
      .from(webhookExecutions)
      .where(
        inArray(
          webhookExecutions.id,
          accepted.map((a) => a.id),
        ),
      );
    expect(rows).toHaveLength(accepted.length);
    for (const { id, i } of accepted) {
      const row = rows.find((r) => r.id === id)!;
      const keyOf = [good, restricted, nearLimit].find((k) => k.token === cases[i]!.key)!;
      expect(row).toMatchObject({
        payload: { event_id: cases[i]!.eventId, n: i },
        actionId: cases[i]!.eventId === 'batch-team' ? ofTeam.id : enabled.id,
        apiKeyId: keyOf.id,
        triggeredBy: keyOf === restricted ? 'Restricted' : keyOf.name,
      });
      expect(row.actor).toMatchObject({ kind: 'apiKey', apiKeyId: keyOf.id, customerId, restricted: keyOf === restricted });
    }
    const [window] = await t.db
      .select()
      .from(authFailures)
      .where(eq(authFailures.subject, `webhook.key:${nearLimit.id}`));
    expect(window!.failures).toBeGreaterThan(50);
    // Every accepted trigger runs (executions of REFRESH_DATASOURCE_ALL with nothing to refresh succeed).
    await executor.drain();
    const finished = await t.db
      .select({ outcome: webhookExecutions.outcome })
      .from(webhookExecutions)
      .where(
        inArray(
          webhookExecutions.id,
          accepted.map((a) => a.id),
        ),
      );
    expect(finished.every((r) => r.outcome !== null)).toBe(true);
  });

  it('refuses a deleted key at once although its signature was verified moments before', async () => {
    await newAction({ eventId: 'revoke-now', action: 'REFRESH_DATASOURCE_ALL', enabled: true });
    const key = await newKey();
    expect((await trigger(key.token, 'revoke-now')).status).toBe(202);
    expect((await t.request('DELETE', `${KEYS}/${key.id}`, { token: technician })).status).toBe(204);
    const after = await trigger(key.token, 'revoke-now');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Webhook-Apikey');
  });
});

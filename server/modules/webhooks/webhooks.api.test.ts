import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures } from '@/server/auth/failure-limit.table';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { insertFolder, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import type { WebhookExecutor } from './webhook-executor';
import { testExecutor } from './webhooks.test-kit';
import { webhookExecutions } from './webhooks.table';

const ACTIONS = '/api/webhookEvent/actions';
const KEYS = '/api/webhooks/apikey';
const TRIGGER = '/public-api/integration/webhooks';

let t: TestContext;
let customerId: number;
let owner: string;
let technician: string;
let approver: string;
let otherTechnician: string;
let executor: WebhookExecutor;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  otherTechnician = (await t.actor('TECHNICIAN')).token;
  executor = testExecutor(t);
});
afterAll(async () => {
  executor.stop();
  await t.close();
});

async function newKey(name = `key ${Math.random()}`, token = technician, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', KEYS, { token, json: { name, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string; token: string; name: string };
}

async function newAction(body: Record<string, unknown>, token = technician) {
  const res = await t.request('POST', ACTIONS, { token, json: { name: `action ${body.eventId}`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; eventId: string; enabled: boolean };
}

const trigger = (key: string | undefined, body: unknown, query = '') =>
  t.request('POST', `${TRIGGER}${query}`, { json: body, headers: key ? { 'x-webhook-apikey': key } : {} });

const executionsOf = async (actionId: number) => (await t.request('GET', `${ACTIONS}/${actionId}/executions`, { token: technician })).body;

describe('webhook API keys (spec 3 "Webhook API key", DECISIONS §5)', () => {
  it('creates a JWT key shown once, lists without tokens, renames, restricts and revokes it', async () => {
    const key = await newKey('Point of sale');
    const claims = decodeJwt(key.token);
    expect(claims).toMatchObject({ jti: key.id, customer_id: customerId, scope: ['WEBHOOK_CALL'] });
    expect(key).toMatchObject({
      name: 'Point of sale',
      restricted: false,
      scopes: { values: ['WEBHOOK_CALL'] },
      customerId,
      readOnly: false,
    });
    expect(key).toMatchObject({ teamAccessList: { teams: [] }, createdAt: expect.any(Number) });

    const list = await t.request('GET', KEYS, { token: technician });
    expect(list.status).toBe(200);
    const listed = list.body.content.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ name: 'Point of sale' });
    expect(listed.token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(key.token);

    const team = await t.request('POST', '/api/team', { token: owner, json: { name: `Kitchen ${Math.random()}` } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    // Team changes need a member of the team or an OWNER (spec 1 "Team assignment").
    const put = await t.request('PUT', `${KEYS}/${key.id}`, {
      token: owner,
      json: { name: 'POS', restricted: true, teamAccessList: { teams: [{ id: team.body.id, readOnly: false }] } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'POS', restricted: true, teamAccessList: { teams: [{ id: team.body.id, readOnly: false }] } });
    expect(put.body.token).toBeUndefined();

    expect((await t.request('DELETE', `${KEYS}/${key.id}`, { token: technician })).status).toBe(204);
    const after = await trigger(key.token, { event_id: 'anything' });
    expect(after.status).toBe(401);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'webhookApiKey'), eq(auditLog.entityId, key.id)));
    expect(audit.map((e) => e.action).sort()).toEqual(
      ['create', 'delete', 'update', 'updateTeamAssignments', 'updateTeamAssignments'].slice(0, audit.length).sort(),
    );
  });

  it('needs TECHNICIAN, and another tenant cannot see or change a key', async () => {
    expect((await t.request('POST', KEYS, { token: approver, json: { name: 'x' } })).status).toBe(403);
    const key = await newKey();
    expect((await t.request('PUT', `${KEYS}/${key.id}`, { token: otherTechnician, json: { name: 'mine' } })).status).toBe(404);
    expect((await t.request('DELETE', `${KEYS}/${key.id}`, { token: otherTechnician })).status).toBe(404);
    const theirs = await t.request('GET', KEYS, { token: otherTechnician });
    expect(theirs.body.content.some((k: { id: string }) => k.id === key.id)).toBe(false);
  });
});

describe('webhook actions (spec 3 "Webhook action")', () => {
  it("creates disabled, keeps event ids unique and without whitespace, and updates by the spec's rules", async () => {
    const a = await newAction({ eventId: 'sync-now', action: 'FORCE_SYNC_SHARED_FOLDER', targetId: await fileFolderId() });
    expect(a).toMatchObject({ enabled: false, eventId: 'sync-now', action: 'FORCE_SYNC_SHARED_FOLDER', readOnly: false });
    expect((a as unknown as { targetName: string }).targetName).toEqual(expect.any(String));

    const twice = await t.request('POST', ACTIONS, {
      token: technician,
      json: { name: 'b', eventId: 'sync-now', action: 'REFRESH_DATASOURCE_ALL' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.key).toBe('webhookAction.error.eventIdExists');
    const spaced = await t.request('POST', ACTIONS, {
      token: technician,
      json: { name: 'b', eventId: 'a b', action: 'REFRESH_DATASOURCE_ALL' },
    });
    expect(spaced.status).toBe(400);
    const unknownType = await t.request('POST', ACTIONS, { token: technician, json: { name: 'b', eventId: 'x', action: 'LAUNCH_ROCKET' } });
    expect(unknownType.status).toBe(400);
    const needsTarget = await t.request('POST', ACTIONS, {
      token: technician,
      json: { name: 'b', eventId: 'no-target', action: 'RESTART_DEVICE' },
    });
    expect(needsTarget.status).toBe(400);
    expect(needsTarget.body.key).toBe('webhookAction.error.targetRequired');

    // name, enabled, action, actionParams together: omitted enabled is false again; targets and an empty eventId are kept.
    const on = await t.request('PUT', `${ACTIONS}/${a.id}`, {
      token: technician,
      json: { name: 'Sync', enabled: true, action: 'FORCE_SYNC_SHARED_FOLDER', actionParams: { note: 'x' }, eventId: '' },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({
      name: 'Sync',
      enabled: true,
      eventId: 'sync-now',
      actionParams: { note: 'x' },
      targetData: { targetIds: [expect.any(String)] },
    });
    const off = await t.request('PUT', `${ACTIONS}/${a.id}`, {
      token: technician,
      json: { name: 'Sync', action: 'FORCE_SYNC_SHARED_FOLDER', eventId: 'sync-later' },
    });
    expect(off.body.actionParams ?? null).toBeNull();
    expect(off.body).toMatchObject({ enabled: false, eventId: 'sync-later', targetData: { targetIds: [expect.any(String)] } });

    const simple = await t.request('GET', '/api/webhookEvent/simple', { token: technician });
    expect(simple.body.content).toContainEqual({ id: a.id, name: 'Sync' });
    expect(
      (await t.request('GET', `${ACTIONS}?search=${encodeURIComponent('eventId=sync-later')}`, { token: technician })).body.totalElements,
    ).toBe(1);
  });

  it('counts actions against the WEBHOOK resource limit of the tier', async () => {
    const starter = (await t.factories.customer({ licenseTier: 'STARTER' })).id;
    const tech = (await t.actor('TECHNICIAN', { customerId: starter })).token;
    const res = await t.request('POST', ACTIONS, {
      token: tech,
      json: { name: 'x', eventId: 'limited', action: 'REFRESH_DATASOURCE_ALL' },
    });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('resourceLimit.error.limitReached');
  });

  it("refuses another tenant's targets and actions", async () => {
    const theirFolder = await fileFolderId((await t.factories.customer()).id);
    const res = await t.request('POST', ACTIONS, {
      token: technician,
      json: { name: 'x', eventId: 'cross', action: 'UPLOAD_FILE_TO_FOLDER', targetId: theirFolder },
    });
    expect(res.status).toBe(404);
    const mine = await newAction({ eventId: 'mine-only', action: 'REFRESH_DATASOURCE_ALL' });
    expect((await t.request('GET', `${ACTIONS}/${mine.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('GET', `${ACTIONS}/${mine.id}/executions`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('DELETE', `${ACTIONS}/${mine.id}`, { token: otherTechnician })).status).toBe(404);
  });
});

describe('triggers (spec 5 §4)', () => {
  it('answers 404 for an unknown event id, 200 "disabled" for a disabled action, 202 when queued, in every form', async () => {
    const key = await newKey();
    const folder = await fileFolderId();
    const action = await newAction({ eventId: 'form-test', action: 'FORCE_SYNC_SHARED_FOLDER', targetId: folder });

    const unknown = await trigger(key.token, { event_id: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorReason: 'unknownEventId', message: expect.any(String) });
    const disabled = await trigger(key.token, { event_id: 'form-test' });
    expect(disabled.status).toBe(200);
    expect(disabled.body.errorReason).toBe('disabled');
    expect((await executionsOf(action.id)).totalElements).toBe(0);

    await t.request('PUT', `${ACTIONS}/${action.id}`, {
      token: technician,
      json: { name: 'Form', enabled: true, action: 'FORCE_SYNC_SHARED_FOLDER' },
    });
    const json = await trigger(key.token, { eventId: 'form-test', extra: 1 });
    expect(json.status, JSON.stringify(json.body)).toBe(202);
    expect(json.body).toEqual({ message: expect.any(String), errorReason: null, executionId: expect.any(String) });
    expect((await trigger(key.token, { note: 'x' }, '?eventId=form-test')).status).toBe(202);
    const xml = await t.app.request(TRIGGER, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', 'x-webhook-apikey': key.token },
      body: '<?xml version="1.0"?><webhook><event_id>form-test</event_id><message>Sold out</message></webhook>',
    });
    expect(xml.status, await xml.clone().text()).toBe(202);
    const payload = Buffer.from(JSON.stringify({ event_id: 'form-test' })).toString('base64');
    const get = await t.request('GET', `${TRIGGER}?apiKey=${encodeURIComponent(key.token)}&payload=${encodeURIComponent(payload)}`);
    expect(get.status, JSON.stringify(get.body)).toBe(202);
    const badXml = await t.app.request(TRIGGER, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', 'x-webhook-apikey': key.token },
      body: '<!DOCTYPE a [<!ENTITY e "form-test">]><a><event_id>&e;</event_id></a>',
    });
    // Entities are never expanded: the event id is not the one the entity names.
    expect(badXml.status).not.toBe(202);

    // Each accepted trigger woke this process's executor; a drain waits for what it runs.
    await executor.drain();
    const done = await executionsOf(action.id);
    // Synced folders do not exist yet: a clear failed execution, nothing thrown.
    expect(done.content.map((e: { outcome: string }) => e.outcome)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED']);
    expect(done.totalElements).toBe(4);
    expect(done.content[0]).toMatchObject({ triggeredBy: key.name, apiKeyId: key.id, detail: expect.stringMatching(/synced/i) });
    expect(done.content[0].finishedAt).toBeGreaterThanOrEqual(done.content[0].receivedAt);
  });

  it("refuses a missing, tampered, revoked or user token, and another tenant's key sees none of this tenant's actions", async () => {
    const key = await newKey();
    await newAction({ eventId: 'guarded', action: 'REFRESH_DATASOURCE_ALL', enabled: true });
    expect((await trigger(undefined, { event_id: 'guarded' })).status).toBe(401);
    const [h, p, s] = key.token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(key.token), customer_id: customerId + 1 })).toString('base64url');
    expect((await trigger(`${h}.${forged}.${s}`, { event_id: 'guarded' })).status).toBe(401);
    expect((await trigger(`${h}.${p}.${tampered(s!)}`, { event_id: 'guarded' })).status).toBe(401);
    expect((await trigger(technician, { event_id: 'guarded' })).status).toBe(401);
    const jwtAccess = await t.token({
      grant_type: 'password',
      username: (await t.factories.user({ customerId, role: 'TECHNICIAN' })).email,
      password: 'correct horse battery',
    });
    expect((await trigger(jwtAccess.body.jwt_access_token as string, { event_id: 'guarded' })).status).toBe(401);
    // A key is not a bearer token either.
    expect((await t.request('GET', ACTIONS, { token: key.token })).status).toBe(401);

    const otherCustomer = (await t.factories.customer()).id;
    const otherTech = (await t.actor('TECHNICIAN', { customerId: otherCustomer })).token;
    const theirKey = await newKey('theirs', otherTech);
    const res = await trigger(theirKey.token, { event_id: 'guarded' });
    expect(res.status).toBe(404);
  });

  it('takes at most 256 KiB and answers a payload that is no object with 400', async () => {
    const key = await newKey();
    const big = await trigger(key.token, { event_id: 'x', data: 'a'.repeat(300 * 1024) });
    expect(big.status).toBe(413);
    expect((await trigger(key.token, ['event_id'])).status).toBe(400);
    const notJson = Buffer.from('not json').toString('base64');
    expect((await t.request('GET', `${TRIGGER}?apiKey=${encodeURIComponent(key.token)}&payload=${notJson}`)).status).toBe(400);
    expect((await trigger(key.token, {})).body.key).toBe('webhook.error.eventIdRequired');
  });

  it('answers at most 50 triggers a second per key (429 with Retry-After), counted in the database every instance shares', async () => {
    const key = await newKey();
    await newAction({ eventId: 'burst', action: 'REFRESH_DATASOURCE_ALL' });
    expect((await trigger(key.token, { event_id: 'burst' })).status).toBe(200);
    const [counted] = await t.db
      .select()
      .from(authFailures)
      .where(eq(authFailures.subject, `webhook.key:${key.id}`));
    expect(counted?.failures).toBeGreaterThanOrEqual(1);
    // The key's window at its 50 (a window ending a minute from now, so the test does not race the clock).
    await t.db
      .update(authFailures)
      .set({ failures: 50, windowStart: sql`now() + interval '1 minute'` })
      .where(eq(authFailures.subject, `webhook.key:${key.id}`));
    const limited = await trigger(key.token, { event_id: 'burst' });
    expect(limited.status).toBe(429);
    expect(limited.body.key).toBe('request.error.rateLimited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another key has its own allowance.
    expect((await trigger((await newKey()).token, { event_id: 'burst' })).status).toBe(200);
  });

  it('runs an accepted trigger once even when its first executor died mid-way (at-least-once, effect once)', async () => {
    // No executor of this process is woken by the trigger: as if the accepting instance died before running it.
    executor.stop();
    executor = testExecutor(t);
    executor.stop();
    const key = await newKey();
    const action = await newAction({ eventId: 'crash', action: 'FORCE_SYNC_SHARED_FOLDER', targetId: await fileFolderId(), enabled: true });
    const accepted = await trigger(key.token, { event_id: 'crash' });
    expect(accepted.status).toBe(202);
    // An instance claimed it and died: its lease holds the row until it runs out.
    await t.db
      .update(webhookExecutions)
      .set({ leaseUntil: sql`now() + interval '1 hour'`, attempts: 1 })
      .where(eq(webhookExecutions.id, accepted.body.executionId));
    expect(await executor.drain()).toBe(0);
    await t.db
      .update(webhookExecutions)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(webhookExecutions.id, accepted.body.executionId));
    const [first, second] = await Promise.all([executor.drain(), testExecutor(t).drain()]);
    expect(first + second).toBe(1);
    const [row] = await t.db.select().from(webhookExecutions).where(eq(webhookExecutions.id, accepted.body.executionId));
    expect(row).toMatchObject({ outcome: 'FAILED', attempts: 2 });
    // Finished rows are never claimed again.
    await t.db
      .update(webhookExecutions)
      .set({ leaseUntil: sql`now() - interval '1 hour'` })
      .where(eq(webhookExecutions.actionId, action.id));
    expect(await executor.drain()).toBe(0);
  });
});

describe('executions (spec 5 §4)', () => {
  it("lists an action's executions newest first, page by page, counting all of them; a queued one has no outcome yet", async () => {
    const action = await newAction({ eventId: 'history', action: 'REFRESH_DATASOURCE_ALL', enabled: true });
    const actor = {
      kind: 'apiKey',
      apiKeyId: uuidv7(),
      name: 'History',
      customerId,
      customerName: 'x',
      scopes: ['WEBHOOK_CALL'],
      restricted: false,
    } as const;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const finished = (minutesAgo: number) => ({
      id: uuidv7(),
      customerId,
      actionId: action.id,
      eventId: 'history',
      apiKeyId: actor.apiKeyId,
      triggeredBy: 'History',
      actor,
      payload: {},
      receivedAt: at(minutesAgo),
      startedAt: at(minutesAgo),
      finishedAt: at(minutesAgo),
      outcome: 'SUCCEEDED' as const,
      affected: minutesAgo,
      attempts: 1,
    });
    // Oldest first; the last two were received at the same time (the id decides), the newest is still queued (its
    // lease far ahead, so no executor takes it meanwhile).
    const tie = finished(20);
    const rows = [finished(50), finished(40), finished(30), tie, { ...tie, id: uuidv7() }];
    const queued = { ...finished(10), startedAt: null, finishedAt: null, outcome: null, affected: null, leaseUntil: at(-60) };
    await t.db.insert(webhookExecutions).values([...rows, queued]);
    const page = async (n: number) =>
      (await t.request('GET', `${ACTIONS}/${action.id}/executions?page=${n}&size=2`, { token: technician })).body;

    const first = await page(0);
    expect(first).toMatchObject({ totalElements: 6, totalPages: 3, number: 0, first: true, last: false, sort: 'receivedAt,desc;id,desc' });
    expect(first.content.map((e: { id: string }) => e.id)).toEqual([queued.id, rows[4]!.id]);
    expect(Object.keys(first.content[0]).sort()).toEqual(['actionId', 'apiKeyId', 'eventId', 'id', 'receivedAt', 'triggeredBy']);
    expect(first.content[1]).toMatchObject({ outcome: 'SUCCEEDED', affected: 20, receivedAt: rows[4]!.receivedAt.getTime() });
    expect((await page(1)).content.map((e: { id: string }) => e.id)).toEqual([rows[3]!.id, rows[2]!.id]);
    const last = await page(2);
    expect(last).toMatchObject({ totalElements: 6, last: true, numberOfElements: 2 });
    expect(last.content.map((e: { id: string }) => e.id)).toEqual([rows[1]!.id, rows[0]!.id]);
    // Past the end: no items, and still the count of all.
    expect(await page(7)).toMatchObject({ content: [], totalElements: 6, totalPages: 3, last: true });
  });
});

async function fileFolderId(ofCustomer = customerId): Promise<string> {
  return (await insertFolder(t.db, await rootFolderOf(t.db, ofCustomer), `Folder ${Math.random()}`)).id;
}

/** The signature with one character in its middle changed (its last characters may carry unused bits). */
function tampered(signature: string): string {
  const i = Math.floor(signature.length / 2);

  return `${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`;
}

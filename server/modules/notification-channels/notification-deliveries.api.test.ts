import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@/server/db/transaction';
import type { TestServer } from '@/server/outbound/outbound.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { RETRY_SCHEDULE_MS, type DeliveryWorker } from './delivery-worker';
import { queueNotifications, type AlertNotification } from './index';
import { notificationChannels } from './notification-channels.table';
import { notificationDeliveries } from './notification-deliveries.table';
import { startReceiver, testDeliveryWorker } from './notification-deliveries.test-kit';

/*
 * Deliveries of WEBHOOK channels (spec 5 §5) through the worker the job runs, with a clock the tests drive, to real
 * receivers on 127.0.0.1; signatures checked with the `standardwebhooks` package.
 */

const BASE = '/api/alertRuleNotificationChannel';

let t: TestContext;
let worker: DeliveryWorker;
let customerId: number;
let technician: string;
const receivers: TestServer[] = [];

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
  // The product's 15 s: a receiver on a busy machine may take hundreds of milliseconds to answer (a 300 ms limit here
  // turned the first attempts of the signing and retry tests into timeouts at a load average of 11).
  worker = testDeliveryWorker(t);
  customerId = (await t.factories.customer()).id;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
});
afterAll(async () => {
  worker.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});

async function receiver(answers?: Parameters<typeof startReceiver>[0]): Promise<TestServer> {
  const server = await startReceiver(answers);
  receivers.push(server);

  return server;
}

async function webhookChannel(url: string, name = `Hook ${Math.random()}`): Promise<{ id: number; secret: string }> {
  const res = await t.request('POST', BASE, { token: technician, json: { name, comment: '', channelType: 'WEBHOOK', notify: [url] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body;
}

const offline = (): AlertNotification => ({
  type: 'alert.device.offline',
  timestamp: new Date().toISOString(),
  data: {
    alertId: 7,
    alertRuleId: 3,
    alertRuleName: 'Lobby screens',
    customerId,
    device: { id: '0190a6a2-0000-7000-8000-000000000001', name: 'Lobby', lastActivity: null, folderPath: 'HQ/Lobby' },
  },
});

async function queue(channelIds: number[], notification = offline()): Promise<void> {
  await queueNotifications(t.db, { customerId, channelIds, notification });
}

async function deliveriesOf(channelId: number) {
  const res = await t.request('GET', `${BASE}/${channelId}/deliveries`, { token: technician });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body.content as {
    id: string;
    state: string;
    attemptCount: number;
    nextAttemptAt?: number;
    detail?: string;
    attempts: any[];
  }[];
}

const later = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('WEBHOOK channels (spec 5 §5)', () => {
  it('shows the secret once, in the create answer; never in a read, a list or a select; stores it sealed', async () => {
    const created = await webhookChannel('https://hooks.example.com/signage');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await t.request('GET', `${BASE}/${created.id}`, { token: technician });
    expect(read.body).toMatchObject({ channelType: 'WEBHOOK', enabled: true, notify: ['https://hooks.example.com/signage'] });
    expect(read.body).not.toHaveProperty('secret');
    const listed = await t.request('GET', BASE, { token: technician });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await t.request('GET', `${BASE}/${created.id}?select=secret`, { token: technician })).status).toBe(400);
    const [stored] = await t.db.select().from(notificationChannels).where(eq(notificationChannels.id, created.id));
    const key = created.secret.slice('whsec_'.length);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored!.secretSealed).toBeTruthy();
  });

  it.each([
    ['two URLs', ['https://a.example.com/', 'https://b.example.com/'], 'notify.1'],
    ['an ftp URL', ['ftp://files.example.com/hook'], 'notify.0'],
    ['no URL', ['hooks.example.com'], 'notify.0'],
    ['an e-mail address', ['ops@example.com'], 'notify.0'],
  ])('refuses %s with 400 naming the entry', async (_, notify, path) => {
    const res = await t.request('POST', BASE, {
      token: technician,
      json: { name: 'Bad hook', comment: '', channelType: 'WEBHOOK', notify },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'request.error.invalidCombination', details: { issues: [{ path }] } });
  });

  it('a channel that becomes a WEBHOOK is answered a secret once; rotating another type is refused', async () => {
    const mail = await t.request('POST', BASE, {
      token: technician,
      json: { name: 'Mail turned hook', comment: '', channelType: 'EMAIL', notify: ['ops@example.com'] },
    });
    expect((await t.request('POST', `${BASE}/${mail.body.id}/rotateSecret`, { token: technician })).body.key).toBe(
      'notificationChannel.error.notWebhook',
    );
    const changed = await t.request('PUT', `${BASE}/${mail.body.id}`, {
      token: technician,
      json: { channelType: 'WEBHOOK', notify: ['http://hooks.example.com/x'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.secret).toMatch(/^whsec_/);
    const again = await t.request('PUT', `${BASE}/${mail.body.id}`, { token: technician, json: { comment: 'x' } });
    expect(again.body).not.toHaveProperty('secret');
  });

  it('signs every request by Standard Webhooks; after a rotation both signatures for 24 h, then only the new one', async () => {
    const server = await receiver([200]);
    const channel = await webhookChannel(`${server.origin}/hook`);
    await queue([channel.id]);
    await worker.drain();
    const [first] = server.requests;
    expect(first).toBeDefined();
    const headers = first!.headers as Record<string, string>;
    expect(new Webhook(channel.secret).verify(first!.body, headers)).toMatchObject({ type: 'alert.device.offline', data: { alertId: 7 } });
    expect(JSON.parse(first!.body)).toEqual({
      type: 'alert.device.offline',
      timestamp: expect.any(String),
      data: expect.objectContaining({ alertRuleName: 'Lobby screens', customerId, device: expect.objectContaining({ name: 'Lobby' }) }),
    });
    expect(headers['webhook-id']).toBe((await deliveriesOf(channel.id))[0]!.id);

    const rotated = await t.request('POST', `${BASE}/${channel.id}/rotateSecret`, { token: technician });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(channel.secret);
    expect((await t.request('GET', `${BASE}/${channel.id}`, { token: technician })).body).not.toHaveProperty('secret');
    await queue([channel.id]);
    await worker.drain();
    const second = server.requests[1]!;
    const signatures = String(second.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(() => new Webhook(rotated.body.secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(channel.secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();

    await queue([channel.id]);
    await worker.drain(later(new Date(), 25 * 3600_000));
    expect(String(server.requests[2]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('retries a 500 on the schedule of spec 5 §5 with the same webhook-id, and gives up after the tenth attempt', async () => {
    const server = await receiver([500]);
    const channel = await webhookChannel(`${server.origin}/failing`);
    await queue([channel.id]);
    let now = new Date();
    await worker.drain(now);
    expect(server.requests).toHaveLength(1);
    for (const [i, wait] of RETRY_SCHEDULE_MS.entries()) {
      // Not before its time: a drain just before the retry is due sends nothing.
      await worker.drain(later(now, wait - 1_000));
      expect(server.requests).toHaveLength(i + 1);
      now = later(now, wait);
      await worker.drain(now);
      expect(server.requests).toHaveLength(i + 2);
    }
    await worker.drain(later(now, 48 * 3600_000));
    expect(server.requests).toHaveLength(10);
    expect(new Set(server.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [delivery] = await deliveriesOf(channel.id);
    expect(delivery).toMatchObject({ state: 'FAILED', attemptCount: 10, detail: 'Gave up after 10 attempts' });
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual(Array(10).fill(500));
    expect(delivery!.attempts[0]).toMatchObject({
      attempt: 1,
      succeeded: false,
      latencyMs: expect.any(Number),
      error: expect.stringContaining('500'),
    });
  });

  it('a timeout and a 302 are failed attempts (the redirect is not followed); the retry after 5 s succeeds', async () => {
    const target = await receiver([200]);
    const server = await receiver(['hang', { status: 302, location: `${target.origin}/elsewhere` }, 200]);
    const channel = await webhookChannel(`${server.origin}/slow`);
    await queue([channel.id]);
    const now = new Date();
    // Only the hanging attempt needs a short limit (the receiver never answers it, so no machine is too slow for it).
    const impatient = testDeliveryWorker(t, { timeoutMs: 300 });
    try {
      await impatient.drain(now);
    } finally {
      impatient.stop();
    }
    let [delivery] = await deliveriesOf(channel.id);
    expect(delivery).toMatchObject({ state: 'PENDING', attemptCount: 1, nextAttemptAt: now.getTime() + 5_000 });
    expect(delivery!.attempts[0]).toMatchObject({ succeeded: false, error: expect.stringMatching(/No answer within/) });
    expect(delivery!.attempts[0]).not.toHaveProperty('statusCode');

    await worker.drain(later(now, 5_000));
    [delivery] = await deliveriesOf(channel.id);
    expect(delivery!.attempts[1]).toMatchObject({ succeeded: false, statusCode: 302, error: expect.stringMatching(/redirect/) });
    expect(target.requests).toHaveLength(0);
    expect(delivery!.nextAttemptAt).toBe(now.getTime() + 5_000 + 5 * 60_000);

    await worker.drain(later(now, 5_000 + 5 * 60_000));
    [delivery] = await deliveriesOf(channel.id);
    expect(delivery).toMatchObject({ state: 'DELIVERED', attemptCount: 3 });
    expect(delivery!.attempts[2]).toMatchObject({ succeeded: true, statusCode: 200 });
    expect(new Set(server.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery!.id]));
  });

  it('a 410 disables the channel (answered in reads); nothing more is queued until it is enabled again', async () => {
    const server = await receiver([410, 200]);
    const channel = await webhookChannel(`${server.origin}/gone`);
    await queue([channel.id]);
    await worker.drain();
    const [delivery] = await deliveriesOf(channel.id);
    expect(delivery).toMatchObject({ state: 'FAILED', attemptCount: 1, detail: expect.stringMatching(/410/) });
    const read = await t.request('GET', `${BASE}/${channel.id}`, { token: technician });
    expect(read.body).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410 Gone/) });

    await queue([channel.id]);
    expect(await deliveriesOf(channel.id)).toHaveLength(1);
    await worker.drain(later(new Date(), 3600_000));
    expect(server.requests).toHaveLength(1);

    const enabled = await t.request('PUT', `${BASE}/${channel.id}`, { token: technician, json: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true });
    expect(enabled.body).not.toHaveProperty('disabledReason');
    await queue([channel.id]);
    await worker.drain();
    expect(server.requests).toHaveLength(2);
  });

  it('a pending delivery of a channel disabled meanwhile ends without being sent', async () => {
    const server = await receiver([500, 200]);
    const channel = await webhookChannel(`${server.origin}/later-off`);
    await queue([channel.id]);
    const now = new Date();
    await worker.drain(now);
    await t.request('PUT', `${BASE}/${channel.id}`, { token: technician, json: { enabled: false } });
    await worker.drain(later(now, 10_000));
    expect(server.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(channel.id);
    expect(delivery).toMatchObject({ state: 'FAILED', attemptCount: 1, detail: expect.stringMatching(/disabled/) });
  });
});

describe('queueNotifications (the alerts module’s entry)', () => {
  it("skips another customer's and deleted channels, and queues nothing when the caller's transaction rolls back", async () => {
    const server = await receiver([200]);
    const mine = await webhookChannel(`${server.origin}/mine`);
    const otherTechnician = (await t.actor('TECHNICIAN')).token;
    const theirs = await t.request('POST', BASE, {
      token: otherTechnician,
      json: { name: 'Theirs', comment: '', channelType: 'WEBHOOK', notify: [`${server.origin}/theirs`] },
    });
    await queue([mine.id, theirs.body.id, 999_999_999]);
    expect(await t.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.channelId, theirs.body.id))).toEqual([]);
    await expect(
      withTransaction(t.db, async (tx) => {
        await queueNotifications(tx, { customerId, channelIds: [mine.id], notification: offline() });
        throw new Error('the alert was not recorded');
      }),
    ).rejects.toThrow('the alert was not recorded');
    expect(await deliveriesOf(mine.id)).toHaveLength(1);
    await worker.drain();
    expect(server.requests.map((r) => r.url)).toEqual(['/mine']);
  });

  it('queues several notifications of one evaluation at once: one delivery per notification and channel, each sent', async () => {
    const server = await receiver([200, 200, 200, 200]);
    const left = await webhookChannel(`${server.origin}/left`);
    const right = await webhookChannel(`${server.origin}/right`);
    const second = { ...offline(), data: { ...offline().data, alertId: 8 } };
    await queueNotifications(t.db, { customerId, channelIds: [left.id, right.id], notifications: [offline(), second] });
    await worker.drain();
    const sent = server.requests.map((r) => `${r.url} ${JSON.parse(r.body).data.alertId}`).sort();
    expect(sent).toEqual(['/left 7', '/left 8', '/right 7', '/right 8']);
    expect(new Set(server.requests.map((r) => r.headers['webhook-id'])).size).toBe(4);
  });
});

describe('test endpoint, deliveries list, roles', () => {
  it('POST /test sends now and answers the delivery with its first attempt; a failing one stays PENDING', async () => {
    const ok = await receiver([200]);
    const channel = await webhookChannel(`${ok.origin}/test`);
    const res = await t.request('POST', `${BASE}/${channel.id}/test`, { token: technician });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      channelId: channel.id,
      type: 'test',
      state: 'DELIVERED',
      attemptCount: 1,
      payload: { type: 'test', data: { alertId: null, alertRuleId: null, alertRuleName: null, customerId } },
      attempts: [{ attempt: 1, succeeded: true, statusCode: 200, latencyMs: expect.any(Number) }],
    });
    expect(ok.requests[0]!.headers['webhook-id']).toBe(res.body.id);
    expect(() => new Webhook(channel.secret).verify(ok.requests[0]!.body, ok.requests[0]!.headers as Record<string, string>)).not.toThrow();

    const failing = await receiver([503]);
    const broken = await webhookChannel(`${failing.origin}/test`);
    const failed = await t.request('POST', `${BASE}/${broken.id}/test`, { token: technician });
    expect(failed.body).toMatchObject({
      state: 'PENDING',
      attempts: [{ succeeded: false, statusCode: 503 }],
      nextAttemptAt: expect.any(Number),
    });
  });

  it('lists deliveries newest first, paged, each with its attempts', async () => {
    const server = await receiver([200]);
    const channel = await webhookChannel(`${server.origin}/list`);
    await queue([channel.id], { ...offline(), type: 'alert.device.offline' });
    await queue([channel.id], { ...offline(), type: 'alert.device.online' });
    await worker.drain();
    const page = await t.request('GET', `${BASE}/${channel.id}/deliveries?size=1`, { token: technician });
    expect(page.body).toMatchObject({ totalElements: 2, size: 1, content: [{ type: 'alert.device.online', state: 'DELIVERED' }] });
    expect(page.body.content[0].attempts).toHaveLength(1);
    const second = await t.request('GET', `${BASE}/${channel.id}/deliveries?size=1&page=1`, { token: technician });
    expect(second.body.content[0]).toMatchObject({ type: 'alert.device.offline' });
  });

  it('needs TECHNICIAN; another tenant gets 404 for test, deliveries and rotateSecret', async () => {
    const channel = await webhookChannel('https://hooks.example.com/roles');
    const approver = (await t.actor('APPROVER', { customerId })).token;
    const stranger = (await t.actor('TECHNICIAN')).token;
    for (const [method, path] of [
      ['POST', `${BASE}/${channel.id}/test`],
      ['GET', `${BASE}/${channel.id}/deliveries`],
      ['POST', `${BASE}/${channel.id}/rotateSecret`],
    ] as const) {
      expect((await t.request(method, path, { token: approver })).status, path).toBe(403);
      expect((await t.request(method, path, { token: stranger })).status, path).toBe(404);
    }
    const rows = await t.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.channelId, channel.id));
    expect(rows).toHaveLength(0);
  });
});

describe('the guarded client (spec 5 §1) on a deployment without ALLOW_PRIVATE_NETWORK_FETCH', () => {
  let guarded: TestContext;
  beforeAll(async () => {
    guarded = await createTestContext();
  });
  afterAll(() => guarded.close());

  it('a WEBHOOK to a loopback address is a failed attempt with a readable reason; nothing reaches it', async () => {
    const server = await receiver([200]);
    const token = (await guarded.actor('TECHNICIAN')).token;
    const created = await guarded.request('POST', BASE, {
      token,
      json: { name: 'Loopback hook', comment: '', channelType: 'WEBHOOK', notify: [`${server.origin}/internal`] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await guarded.request('POST', `${BASE}/${created.body.id}/test`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      state: 'PENDING',
      attempts: [{ attempt: 1, succeeded: false, error: expect.stringMatching(/127\.0\.0\.1.*public addresses only/) }],
    });
    expect(res.body.attempts[0]).not.toHaveProperty('statusCode');
    expect(server.requests).toHaveLength(0);
  });
});

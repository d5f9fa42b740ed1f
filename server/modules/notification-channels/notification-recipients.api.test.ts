import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { deliverDueMail } from '@/server/modules/mail/mail.service';
import { mailMessages } from '@/server/modules/mail/mail.table';
import { startSmtpSink, type SmtpSink } from '@/server/modules/mail/smtp-sink.test-kit';
import { createOutboundClient } from '@/server/outbound';
import { startServer, type TestServer } from '@/server/outbound/outbound.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { attemptDelivery, DELIVERY_LEASE_MS, type DeliveryWorker } from './delivery-worker';
import { queueNotifications, type AlertNotification } from './index';
import { claimDueDeliveries, findChannelsByIds } from './notification-deliveries.queries';
import { notificationDeliveryAttempts } from './notification-deliveries.table';
import { startReceiver, testDeliveryWorker } from './notification-deliveries.test-kit';

/*
 * EMAIL (the mail outbox and a real SMTP sink), SMS (the gateway on 127.0.0.1), USER_NOTIFICATION and the console's
 * bell, and a worker that dies holding a lease.
 */

const BASE = '/api/alertRuleNotificationChannel';

let t: TestContext;
let sink: SmtpSink;
let gateway: TestServer;
let worker: DeliveryWorker;
let customerId: number;
let technician: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  // The gateway fails the first message to +4915100000002 only.
  let hasFailed = false;
  gateway = await startServer((_request, response, body) => {
    const isSecond = (JSON.parse(body) as { to: string }).to === '+4915100000002';
    response.writeHead(isSecond && !hasFailed ? 500 : 200).end();
    if (isSecond) hasFailed = true;
  });
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true', SMTP_URL: sink.url, SMS_WEBHOOK_URL: `${gateway.origin}/sms` });
  worker = testDeliveryWorker(t);
  customerId = (await t.factories.customer()).id;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
});
afterAll(async () => {
  worker.stop();
  await gateway.close();
  await sink.close();
  await t.close();
});

const notification = (
  type: AlertNotification['type'] = 'alert.datasource.error',
  texts?: AlertNotification['texts'],
): AlertNotification => ({
  type,
  timestamp: '2026-11-29T08:00:00.000Z',
  data: {
    alertId: 11,
    alertRuleId: 4,
    alertRuleName: 'Feeds',
    customerId,
    datasource: { id: '0190a6a2-0000-7000-8000-0000000000d5', name: 'Weather', errorCounter: 3, lastError: 'HTTP 503' },
  },
  texts,
});

async function channel(body: Record<string, unknown>, token = technician) {
  return t.request('POST', BASE, { token, json: { name: `Channel ${uuidv7()}`, comment: '', ...body } });
}

describe('EMAIL channels', () => {
  it('queue one message per address in the mail outbox in the attempt, sent over SMTP with the texts given or the facts', async () => {
    const created = await channel({ channelType: 'EMAIL', notify: ['ops@example.com', 'lead@example.com'] });
    await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification() });
    await queueNotifications(t.db, {
      customerId,
      channelIds: [created.body.id],
      notification: notification('alert.datasource.fixed', { emailSubject: 'Weather is back', emailBody: 'All good again.' }),
    });
    await worker.drain();
    const deliveries = await t.request('GET', `${BASE}/${created.body.id}/deliveries`, { token: technician });
    expect(deliveries.body.content.map((d: { state: string }) => d.state)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(deliveries.body.content[0].attempts[0]).toMatchObject({ succeeded: true, detail: expect.stringMatching(/2 e-mail/) });
    const queued = await t.db.select().from(mailMessages).where(eq(mailMessages.kind, 'ALERT_NOTIFICATION'));
    expect(queued).toHaveLength(4);

    await deliverDueMail({ db: t.db, config: t.config, log: createLogger('silent') });
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([
      'lead@example.com',
      'lead@example.com',
      'ops@example.com',
      'ops@example.com',
    ]);
    const error = sink.messages.find((m) => m.subject.includes('Weather') && m.subject.includes('fails'));
    expect(error?.text).toContain('Errors in a row: 3');
    expect(error?.text).toContain('Last error: HTTP 503');
    const fixed = sink.messages.find((m) => m.subject === 'Weather is back');
    expect(fixed?.text).toContain('All good again.');
  });
});

describe('SMS channels', () => {
  it('POST {to, text} to the gateway once per number; a retry sends only to the numbers that failed', async () => {
    const created = await channel({ channelType: 'SMS', notify: ['+4915100000001', '+4915100000002'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await queueNotifications(t.db, {
      customerId,
      channelIds: [created.body.id],
      notification: notification('alert.datasource.error', { sms: 'Weather feed down' }),
    });
    const now = new Date();
    await worker.drain(now);
    await worker.drain(new Date(now.getTime() + 5_000));
    const sms = gateway.requests.filter((r) => r.url === '/sms').map((r) => JSON.parse(r.body));
    expect(sms).toEqual([
      { to: '+4915100000001', text: 'Weather feed down' },
      { to: '+4915100000002', text: 'Weather feed down' },
      { to: '+4915100000002', text: 'Weather feed down' },
    ]);
    const deliveries = await t.request('GET', `${BASE}/${created.body.id}/deliveries`, { token: technician });
    expect(deliveries.body.content[0]).toMatchObject({
      state: 'DELIVERED',
      attempts: [
        { succeeded: false, statusCode: 500, detail: '1 of 2 numbers sent to' },
        { succeeded: true, statusCode: 200, detail: '2 of 2 numbers sent to' },
      ],
    });
  });
});

describe('USER_NOTIFICATION channels and the bell', () => {
  it('validates that notify names users of the tenant (ids)', async () => {
    const other = await t.factories.user({ role: 'VIEWER' });
    for (const notify of [['not-an-id'], [uuidv7()], [other.id]]) {
      const res = await channel({ channelType: 'USER_NOTIFICATION', notify });
      expect(res.status, JSON.stringify(notify)).toBe(400);
    }
    expect((await channel({ channelType: 'USER_NOTIFICATION', notify: [uuidv7()] })).body).toMatchObject({
      key: 'notificationChannel.error.unknownUser',
      details: { issues: [{ path: 'notify.0' }] },
    });
    const mine = await t.factories.user({ role: 'VIEWER', customerId });
    const ok = await channel({ channelType: 'USER_NOTIFICATION', notify: [mine.id] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const changed = await t.request('PUT', `${BASE}/${ok.body.id}`, { token: technician, json: { notify: [mine.id, other.id] } });
    expect(changed.status).toBe(400);
    expect(changed.body.key).toBe('notificationChannel.error.unknownUser');
  });

  it('each named user sees their own notifications: list newest first, unread count, mark one and all read', async () => {
    const alice = await t.actor('VIEWER', { customerId });
    const bob = await t.actor('EDITOR', { customerId });
    const created = await channel({ channelType: 'USER_NOTIFICATION', notify: [alice.user.id, bob.user.id] });
    await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification('alert.datasource.error') });
    await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification('alert.datasource.fixed') });
    await worker.drain();

    const list = await t.request('GET', '/api/notification', { token: alice.token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toMatchObject({
      totalElements: 2,
      content: [
        { type: 'alert.datasource.fixed', read: false, channelId: created.body.id, title: expect.stringMatching(/Weather/) },
        { type: 'alert.datasource.error', read: false, data: { alertId: 11, datasource: { name: 'Weather' } } },
      ],
    });
    expect((await t.request('GET', '/api/notification/unreadCount', { token: alice.token })).body).toEqual({ unread: 2 });

    const first = list.body.content[0].id as string;
    // Bob cannot mark Alice's notification: it is not his (404), and hers stays unread.
    expect((await t.request('POST', `/api/notification/${first}/read`, { token: bob.token })).status).toBe(404);
    expect((await t.request('POST', `/api/notification/${first}/read`, { token: alice.token })).status).toBe(204);
    expect((await t.request('POST', `/api/notification/${first}/read`, { token: alice.token })).status).toBe(204);
    expect((await t.request('GET', '/api/notification/unreadCount', { token: alice.token })).body).toEqual({ unread: 1 });
    const unread = await t.request('GET', '/api/notification?unread=true', { token: alice.token });
    expect(unread.body.content.map((n: { type: string }) => n.type)).toEqual(['alert.datasource.error']);
    expect((await t.request('POST', '/api/notification/readAll', { token: alice.token })).body).toEqual({ marked: 1 });
    expect((await t.request('GET', '/api/notification/unreadCount', { token: alice.token })).body).toEqual({ unread: 0 });

    expect((await t.request('GET', '/api/notification/unreadCount', { token: bob.token })).body).toEqual({ unread: 2 });
    const stranger = await t.actor('OWNER');
    expect((await t.request('GET', '/api/notification', { token: stranger.token })).body.totalElements).toBe(0);
    expect((await t.request('POST', `/api/notification/${first}/read`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('GET', '/api/notification')).status).toBe(401);
  });
});

describe('a worker that dies', () => {
  it('holding a lease: the next worker sends after the lease, once; a finished delivery is never sent again; a late record is dropped', async () => {
    const receiver = await startReceiver([200]);
    try {
      const created = await channel({ channelType: 'WEBHOOK', notify: [`${receiver.origin}/crash`] });
      await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification() });
      const now = new Date();
      // Worker A claims the delivery and dies: its lease is held, nothing is sent or recorded.
      const [claimed] = await claimDueDeliveries(t.db, { now, leaseMs: DELIVERY_LEASE_MS, limit: 10, token: uuidv7() });
      expect(claimed?.channelId).toBe(created.body.id);

      await worker.drain(new Date(now.getTime() + DELIVERY_LEASE_MS - 1_000));
      expect(receiver.requests).toHaveLength(0);
      await worker.drain(new Date(now.getTime() + DELIVERY_LEASE_MS));
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.headers['webhook-id']).toBe(claimed!.id);
      await worker.drain(new Date(now.getTime() + 10 * 24 * 3600_000));
      expect(receiver.requests).toHaveLength(1);

      // Worker A comes back and finishes its attempt: it no longer owns the delivery, so nothing is recorded.
      const [channelRow] = await findChannelsByIds(t.db, [created.body.id]);
      await attemptDelivery(
        { db: t.db, config: t.config, log: createLogger('silent'), outbound: createOutboundClient({ allowPrivateNetwork: true }) },
        { delivery: claimed!, channel: channelRow, token: claimed!.leaseToken!, now },
      );
      const attempts = await t.db
        .select()
        .from(notificationDeliveryAttempts)
        .where(eq(notificationDeliveryAttempts.deliveryId, claimed!.id));
      expect(attempts).toHaveLength(1);
      const deliveries = await t.request('GET', `${BASE}/${created.body.id}/deliveries`, { token: technician });
      expect(deliveries.body.content).toMatchObject([{ state: 'DELIVERED', attemptCount: 1 }]);
    } finally {
      await receiver.close();
    }
  });

  it('during a burst: the deliveries of a worker that died are sent after its lease, the others at once; none lost, none twice', async () => {
    const receiver = await startReceiver([200]);
    try {
      const created = await channel({ channelType: 'WEBHOOK', notify: [`${receiver.origin}/burst`] });
      for (let i = 0; i < 20; i++)
        await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification() });
      const now = new Date();
      const died = await claimDueDeliveries(t.db, { now, leaseMs: DELIVERY_LEASE_MS, limit: 7, token: uuidv7() });
      expect(died).toHaveLength(7);
      await worker.drain(now);
      const ids = () => receiver.requests.map((r) => String(r.headers['webhook-id']));
      expect(ids()).toHaveLength(13);
      expect(ids().filter((id) => died.some((d) => d.id === id))).toEqual([]);
      await worker.drain(new Date(now.getTime() + DELIVERY_LEASE_MS));
      await worker.drain(new Date(now.getTime() + 30 * 24 * 3600_000));
      expect(ids()).toHaveLength(20);
      expect(new Set(ids()).size).toBe(20);
      const deliveries = await t.request('GET', `${BASE}/${created.body.id}/deliveries?size=50`, { token: technician });
      expect(deliveries.body.content.map((d: { state: string }) => d.state)).toEqual(Array(20).fill('DELIVERED'));
    } finally {
      await receiver.close();
    }
  });
});

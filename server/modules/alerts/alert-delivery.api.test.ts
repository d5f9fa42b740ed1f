import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesTestKit } from '@/server/modules/devices/devices.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import { mailMessages } from '@/server/modules/mail/mail.table';
import { queueNotifications } from '@/server/modules/notification-channels';
import { testDeliveryWorker } from '@/server/modules/notification-channels/notification-deliveries.test-kit';
import type { DeliveryWorker } from '@/server/modules/notification-channels/delivery-worker';
import { evaluateRule } from './alert-evaluation';

/*
 * The whole way of an outage (issue 32): an evaluation opens the alert and queues its notifications with the real
 * deliveries, the worker delivers them (a USER_NOTIFICATION to the user's bell, an EMAIL to the mail outbox), and the
 * recovery closes the alert with one "online" notification on each channel.
 */

let kit: Awaited<ReturnType<typeof devicesTestKit>>;
let worker: DeliveryWorker;

beforeAll(async () => {
  kit = await devicesTestKit();
  worker = testDeliveryWorker(kit.t);
});
afterAll(async () => {
  worker.stop();
  await kit.t.close();
});

const EVERY_DAY = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };

describe('an alert rule with real deliveries', () => {
  it('tells the bell and the e-mail once when a screen goes dark, and once when it is back', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const viewer = await kit.t.actor('VIEWER', { customerId: kit.customerId });
    const channel = async (body: Record<string, unknown>) => {
      const res = await kit.t.request('POST', '/api/alertRuleNotificationChannel', {
        token: kit.technician,
        json: { comment: '', ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body.id as number;
    };
    const bell = await channel({ name: 'Console', channelType: 'USER_NOTIFICATION', notify: [viewer.user.id] });
    const mail = await channel({ name: 'Facility', channelType: 'EMAIL', notify: ['facility@example.com'] });
    const rule = await kit.t.request('POST', '/api/alertRule', {
      token: kit.technician,
      json: {
        '@type': 'DeviceOffline',
        name: 'Lobby dark',
        condition: { inactiveMinutes: 15, deviceGroupId: kit.root.id, recursive: true },
        workingDays: EVERY_DAY,
        workingTime: { allDay: true, timeZone: 'Europe/Berlin' },
        notificationChannels: [{ id: bell }, { id: mail }],
        alertEmailTemplate: '{deviceName} in {folderPath} is dark since {since}',
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const ruleId = rule.body.id as number;
    const screen = await kit.device({ name: 'Lobby left', deviceStatus: 'OFFLINE', lastActivity: new Date(now.getTime() - 3_600_000) });
    const deps = { db: kit.t.db, queueNotifications };

    await evaluateRule(deps, { ruleId, now });
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + 60_000) });
    await worker.drain();
    const dark = await kit.t.request('GET', '/api/notification', { token: viewer.token });
    expect(dark.body).toMatchObject({
      totalElements: 1,
      content: [
        {
          type: 'alert.device.offline',
          read: false,
          channelId: bell,
          data: { alertRuleId: ruleId, device: { id: screen.id, name: 'Lobby left' } },
        },
      ],
    });
    const openAlerts = await kit.t.request('GET', '/api/alert/device?state=OPEN', { token: viewer.token });
    expect(openAlerts.body).toMatchObject({ totalElements: 1, content: [{ deviceId: screen.id, alertRuleId: ruleId }] });
    const mails = () =>
      kit.t.db.select().from(mailMessages).where(eq(mailMessages.kind, 'ALERT_NOTIFICATION')).orderBy(mailMessages.createdAt);
    expect(await mails()).toHaveLength(1);
    // The rule's e-mail template, filled in the rule's zone (the screen is in the root: no folder path); no subject
    // template, so the default subject.
    expect((await mails())[0]).toMatchObject({
      to: 'facility@example.com',
      subject: "Screen 'Lobby left' is offline (Lobby dark)",
      textBody: 'Lobby left in  is dark since 2026-06-15 12:00 Europe/Berlin',
    });

    await kit.t.db
      .update(devices)
      .set({ deviceStatus: 'ONLINE', lastActivity: sql`${new Date(now.getTime() + 120_000).toISOString()}::timestamptz` })
      .where(eq(devices.id, screen.id));
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + 180_000) });
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + 240_000) });
    await worker.drain();
    const back = await kit.t.request('GET', '/api/notification', { token: viewer.token });
    expect(back.body.totalElements).toBe(2);
    expect(back.body.content[0]).toMatchObject({ type: 'alert.device.online', data: { device: { id: screen.id } } });
    expect((await kit.t.request('GET', '/api/alert/device?state=OPEN', { token: viewer.token })).body.totalElements).toBe(0);
    expect(await mails()).toHaveLength(2);
  });
});

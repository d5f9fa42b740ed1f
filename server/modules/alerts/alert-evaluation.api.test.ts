import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '@/server/db/client';
import { datasources } from '@/server/modules/datasources/datasources.table';
import { devicesTestKit } from '@/server/modules/devices/devices.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import { insertNotificationChannel } from '@/server/modules/notification-channels/notification-channels.queries';
import { evaluateRule, runEvaluationTick, type EvaluationDeps } from './alert-evaluation';
import type { AlertNotification } from './alert-notifications';
import { alertRules, alerts } from './alerts.table';
import { insertDeviceGroup } from './alerts.test-kit';

let kit: Awaited<ReturnType<typeof devicesTestKit>>;
let channelId: number;
let sent: { customerId: number; channelIds: number[]; notification: AlertNotification }[];
let deps: EvaluationDeps;

beforeAll(async () => {
  kit = await devicesTestKit();
  channelId = (
    await insertNotificationChannel(kit.t.db, { customerId: kit.customerId, name: 'Ops', channelType: 'EMAIL', notify: ['o@example.com'] })
  ).id;
  deps = {
    db: kit.t.db,
    // One entry per notification, whether the evaluation queued them one at a time or together.
    queueNotifications: async (_db: Executor, input) => {
      const { customerId, channelIds } = input;
      for (const notification of 'notifications' in input ? input.notifications : [input.notification])
        sent.push({ customerId, channelIds, notification });
    },
  };
});
beforeEach(() => {
  sent = [];
});
afterAll(() => kit.t.close());

const EVERY_DAY = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
const minutes = (n: number) => n * 60_000;

async function rule(body: Record<string, unknown>) {
  const res = await kit.t.request('POST', '/api/alertRule', {
    token: kit.technician,
    json: {
      '@type': 'DeviceOffline',
      name: `Rule ${uuidv7().slice(-8)}`,
      workingDays: EVERY_DAY,
      workingTime: { allDay: true, timeZone: 'UTC' },
      notificationChannels: [{ id: channelId }],
      scheduledEvaluateSeconds: 60,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as number;
}

const offline = (now: Date, values: Partial<typeof devices.$inferInsert> = {}, folder = kit.root) =>
  kit.device({ deviceStatus: 'OFFLINE', lastActivity: new Date(now.getTime() - minutes(60)), ...values }, folder);
const openAlerts = (ruleId: number) =>
  kit.t.db
    .select()
    .from(alerts)
    .where(sql`${alerts.alertRuleId} = ${ruleId} and ${alerts.closedAt} is null`);
const openDeviceIds = async (ruleId: number) => (await openAlerts(ruleId)).map((a) => a.deviceId).sort();

describe('evaluation of DeviceOffline rules (spec 5 §5)', () => {
  it('opens exactly one alert and one notification per outage over several evaluations, and closes it with one "online"', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Lobby');
    const screen = await offline(now, { name: 'Lobby left', tags: [] }, folder);
    const ruleId = await rule({
      condition: { inactiveMinutes: 15, deviceGroupId: folder.id },
      alertSmsTemplate: '{deviceName} in {folderPath} offline since {since} ({ruleName})',
      alertFixedSmsTemplate: '{deviceName} is {event} again',
    });

    for (const t of [0, 1, 2]) await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + minutes(t)) });
    expect(await openDeviceIds(ruleId)).toEqual([screen.id]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      customerId: kit.customerId,
      channelIds: [channelId],
      notification: {
        type: 'alert.device.offline',
        timestamp: now.toISOString(),
        data: {
          alertRuleId: ruleId,
          customerId: kit.customerId,
          device: { id: screen.id, name: 'Lobby left', folderPath: 'Lobby' },
        },
        texts: { sms: expect.stringMatching(/^Lobby left in Lobby offline since 2026-06-15 10:00 UTC \(Rule /) },
      },
    });
    const [alert] = await openAlerts(ruleId);
    expect(alert).toMatchObject({ kind: 'DEVICE', deviceName: 'Lobby left', deviceGroupId: folder.id, deviceGroupPath: folder.path });

    // The device comes back: one "online", the alert closed; the next evaluations change nothing.
    await kit.t.db
      .update(devices)
      .set({ deviceStatus: 'ONLINE', lastActivity: new Date(now.getTime() + minutes(3)) })
      .where(eq(devices.id, screen.id));
    for (const t of [4, 5]) await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + minutes(t)) });
    expect(await openAlerts(ruleId)).toEqual([]);
    expect(sent.map((s) => s.notification.type)).toEqual(['alert.device.offline', 'alert.device.online']);
    expect(sent[1]!.notification).toMatchObject({ data: { alertId: alert!.id }, texts: { sms: 'Lobby left is online again' } });
    const [stored] = await kit.t.db.select().from(alertRules).where(eq(alertRules.id, ruleId));
    expect(stored).toMatchObject({ evaluateCount: 5, violationCount: 3 });
    expect(stored!.lastEvaluationDate).toEqual(new Date(now.getTime() + minutes(5)));
    expect(stored!.lastViolationDate).toEqual(new Date(now.getTime() + minutes(2)));
    expect(stored!.nextEvaluationAt).toEqual(new Date(now.getTime() + minutes(6)));
    // The same counters and dates answered as spec 2's `evaluate`.
    const read = await kit.t.request('GET', `/api/alertRule/${ruleId}`, { token: kit.technician });
    expect(read.body).toMatchObject({
      evaluate: {
        id: ruleId,
        evaluateCount: 5,
        violationCount: 3,
        lastEvaluationDate: new Date(now.getTime() + minutes(5)).toISOString(),
        lastViolationDate: new Date(now.getTime() + minutes(2)).toISOString(),
      },
      nextEvaluationDate: new Date(now.getTime() + minutes(6)).toISOString(),
    });

    // Devices, folders and the lists show open alerts only.
    const api = await kit.t.request('GET', `/api/alert/device?alertRuleId=${ruleId}&state=CLOSED`, { token: kit.viewer });
    expect(api.body.content).toMatchObject([{ id: alert!.id, deviceId: screen.id, alertRuleId: ruleId, closedAtDate: expect.any(String) }]);
  });

  it('is not violated by an online device, nor by an offline one with recent activity', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Quiet');
    await kit.device({ deviceStatus: 'ONLINE', lastActivity: new Date(now.getTime() - minutes(60)) }, folder);
    await offline(now, { lastActivity: new Date(now.getTime() - minutes(10)) }, folder);
    const ruleId = await rule({ condition: { inactiveMinutes: 15, deviceGroupId: folder.id } });
    expect(await evaluateRule(deps, { ruleId, now })).toMatchObject({ status: 'evaluated', opened: 0, violating: 0 });
    expect(sent).toEqual([]);
  });

  it('evaluates nothing outside working hours, in the rule’s zone, on DST days too', async () => {
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Office');
    // Sundays 01:00–04:00 Berlin: on 2026-03-29 that is 00:00Z–02:00Z (two hours), on 2026-10-25 23:00Z–03:00Z (four).
    const ruleId = await rule({
      condition: { inactiveMinutes: 15, deviceGroupId: folder.id },
      workingDays: { sunday: true },
      workingTime: { allDay: false, from: '01:00', end: '04:00', timeZone: 'Europe/Berlin' },
    });
    const spring = new Date('2026-03-29T02:30:00Z');
    await offline(new Date('2026-03-29T01:30:00Z'), {}, folder);
    expect(await evaluateRule(deps, { ruleId, now: spring })).toEqual({
      status: 'outsideWorkingTime',
      nextEvaluationAt: new Date('2026-04-04T23:00:00Z'),
    });
    expect(await openAlerts(ruleId)).toEqual([]);
    expect(sent).toEqual([]);
    expect(await evaluateRule(deps, { ruleId, now: new Date('2026-03-29T01:30:00Z') })).toMatchObject({ status: 'evaluated', opened: 1 });
    expect(sent).toHaveLength(1);

    // Autumn: 02:30Z is 03:30 CET, still working time (the hour 02:00–03:00 came twice).
    const ruleId2 = await rule({
      condition: { inactiveMinutes: 15, deviceGroupId: folder.id },
      workingDays: { sunday: true },
      workingTime: { allDay: false, from: '01:00', end: '04:00', timeZone: 'Europe/Berlin' },
    });
    expect(await evaluateRule(deps, { ruleId: ruleId2, now: new Date('2026-10-24T22:59:00Z') })).toMatchObject({
      status: 'outsideWorkingTime',
      nextEvaluationAt: new Date('2026-10-24T23:00:00Z'),
    });
    expect(await evaluateRule(deps, { ruleId: ruleId2, now: new Date('2026-10-25T02:30:00Z') })).toMatchObject({
      status: 'evaluated',
      opened: 1,
    });
    expect(await evaluateRule(deps, { ruleId: ruleId2, now: new Date('2026-10-25T03:00:00Z') })).toMatchObject({
      status: 'outsideWorkingTime',
    });
  });

  it('watches the folder recursively or not, less the excluded devices and folders', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const top = await insertDeviceGroup(kit.t.db, kit.root, 'Top');
    const sub = await insertDeviceGroup(kit.t.db, top, 'Sub');
    const skipped = await insertDeviceGroup(kit.t.db, top, 'Skipped');
    const a = await offline(now, {}, top);
    const b = await offline(now, {}, sub);
    const c = await offline(now, {}, top);
    await offline(now, {}, skipped);
    const flat = await rule({ condition: { inactiveMinutes: 15, deviceGroupId: top.id, recursive: false } });
    const deep = await rule({
      condition: { inactiveMinutes: 15, deviceGroupId: top.id, excludeDeviceIds: [c.id], excludeDeviceGroupIds: [skipped.id] },
    });
    await evaluateRule(deps, { ruleId: flat, now });
    await evaluateRule(deps, { ruleId: deep, now });
    expect(await openDeviceIds(flat)).toEqual([a.id, c.id].sort());
    expect(await openDeviceIds(deep)).toEqual([a.id, b.id].sort());

    // A device that leaves the scope closes its alert without an "online" notification.
    sent = [];
    await kit.t.db.update(devices).set({ deviceGroupId: skipped.id, groupPath: skipped.path }).where(eq(devices.id, b.id));
    await evaluateRule(deps, { ruleId: deep, now: new Date(now.getTime() + minutes(1)) });
    expect(await openDeviceIds(deep)).toEqual([a.id]);
    expect(sent).toEqual([]);
  });

  it.each([
    ['OR INCLUDE', { tags: ['lobby', 'bar'], logicalOperator: 'OR', tagFilterType: 'INCLUDE' }, ['both', 'lobby']],
    ['AND INCLUDE', { tags: ['lobby', 'bar'], logicalOperator: 'AND', tagFilterType: 'INCLUDE' }, ['both']],
    ['OR EXCLUDE', { tags: ['lobby', 'bar'], logicalOperator: 'OR', tagFilterType: 'EXCLUDE' }, ['none']],
    ['AND EXCLUDE', { tags: ['lobby', 'bar'], logicalOperator: 'AND', tagFilterType: 'EXCLUDE' }, ['lobby', 'none']],
  ])('filters by tags: %s', async (_label, tagFilter, expected) => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, `Tags ${uuidv7().slice(-6)}`);
    await offline(now, { name: 'both', tags: ['lobby', 'bar'] }, folder);
    await offline(now, { name: 'lobby', tags: ['lobby'] }, folder);
    await offline(now, { name: 'none', tags: [] }, folder);
    const ruleId = await rule({ condition: { inactiveMinutes: 15, deviceGroupId: folder.id, tagFilter } });
    await evaluateRule(deps, { ruleId, now });
    expect((await openAlerts(ruleId)).map((a) => a.deviceName).sort()).toEqual(expected);
  });

  it('waits delayEvaluateAfterViolationMinutes after a violation', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Delay');
    await offline(now, {}, folder);
    await offline(now, {}, folder);
    const ruleId = await rule({ condition: { inactiveMinutes: 15, deviceGroupId: folder.id }, delayEvaluateAfterViolationMinutes: 30 });
    const stored = async () => (await kit.t.db.select().from(alertRules).where(eq(alertRules.id, ruleId)))[0]!;
    expect(await evaluateRule(deps, { ruleId, now })).toMatchObject({ nextEvaluationAt: new Date(now.getTime() + minutes(30)) });
    expect(await stored()).toMatchObject({ nextEvaluationAt: new Date(now.getTime() + minutes(30)), violationCount: 1, evaluateCount: 1 });

    // Nothing violates any more: the rule's own period (a minute) again, the violation count unchanged.
    await kit.t.db
      .update(devices)
      .set({ deviceStatus: 'ONLINE' })
      .where(sql`${devices.deviceGroupId} = ${folder.id}`);
    const later = new Date(now.getTime() + minutes(30));
    expect(await evaluateRule(deps, { ruleId, now: later })).toMatchObject({ violating: 0, closed: 2 });
    expect(await stored()).toMatchObject({
      nextEvaluationAt: new Date(later.getTime() + minutes(1)),
      violationCount: 1,
      evaluateCount: 2,
      lastEvaluationDate: later,
      lastViolationDate: now,
    });
  });

  it('opens one alert when two ticks evaluate one rule at once (SKIP LOCKED, the partial unique index)', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Race');
    const screen = await offline(now, {}, folder);
    const ruleId = await rule({ condition: { inactiveMinutes: 15, deviceGroupId: folder.id } });
    await kit.t.db
      .update(alertRules)
      .set({ nextEvaluationAt: new Date(now.getTime() - 1_000) })
      .where(eq(alertRules.id, ruleId));
    const ticks = await Promise.all([runEvaluationTick(deps, { now }), runEvaluationTick(deps, { now })]);
    expect(ticks.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await Promise.all([evaluateRule(deps, { ruleId, now }), evaluateRule(deps, { ruleId, now })]);
    expect(await openDeviceIds(ruleId)).toEqual([screen.id]);
    expect(sent.filter((s) => s.notification.data.alertRuleId === ruleId)).toHaveLength(1);
    // A second open alert is refused by the database itself.
    await expect(
      kit.t.db
        .insert(alerts)
        .values({ customerId: kit.customerId, alertRuleId: ruleId, kind: 'DEVICE', deviceId: screen.id, openedAt: now }),
    ).rejects.toThrow();
  });

  it('never evaluates a disabled rule or one without working days, and closes its open alerts when it stops', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Stop');
    await offline(now, {}, folder);
    const body = {
      '@type': 'DeviceOffline',
      name: `Stop ${uuidv7().slice(-6)}`,
      condition: { inactiveMinutes: 15, deviceGroupId: folder.id },
    };
    const ruleId = await rule(body);
    await evaluateRule(deps, { ruleId, now });
    expect(await openAlerts(ruleId)).toHaveLength(1);
    const put = await kit.t.request('PUT', `/api/alertRule/${ruleId}`, {
      token: kit.technician,
      json: { ...body, workingDays: null, workingTime: { allDay: true } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.nextEvaluationDate).toBeUndefined();
    expect(await openAlerts(ruleId)).toEqual([]);
    expect(await evaluateRule(deps, { ruleId, now })).toEqual({ status: 'idle', nextEvaluationAt: null });
  });
});

describe('evaluation of DatasourceError rules', () => {
  it('opens an alert at errorCounter ≥ threshold and closes it with "fixed"', async () => {
    const now = new Date('2026-06-15T10:00:00Z');
    const id = uuidv7();
    await kit.t.db.insert(datasources).values({
      id,
      customerId: kit.customerId,
      name: 'Weather',
      sourceType: 'INTERNAL',
      structureType: 'KEY_VALUE',
      errorCounter: 2,
      lastError: 'HTTP 500',
    });
    const res = await kit.t.request('POST', '/api/alertRule', {
      token: kit.technician,
      json: {
        '@type': 'DatasourceError',
        name: 'Feeds down',
        condition: { threshold: 3 },
        workingDays: EVERY_DAY,
        workingTime: { allDay: true },
        notificationChannels: [{ id: channelId }],
        alertFixedSmsTemplate: '{datasourceName} {event}',
      },
    });
    const ruleId = res.body.id as number;
    await evaluateRule(deps, { ruleId, now });
    expect(sent).toEqual([]);
    await kit.t.db.update(datasources).set({ errorCounter: 3 }).where(eq(datasources.id, id));
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + minutes(1)) });
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + minutes(2)) });
    expect(sent.map((s) => s.notification)).toMatchObject([
      { type: 'alert.datasource.error', data: { datasource: { id, name: 'Weather', errorCounter: 3, lastError: 'HTTP 500' } } },
    ]);
    const list = await kit.t.request('GET', '/api/alert/datasource?state=OPEN', { token: kit.viewer });
    expect(list.body.content).toMatchObject([
      {
        alertRuleId: ruleId,
        alertRuleName: 'Feeds down',
        datasourceId: id,
        datasourceName: 'Weather',
        datasourceErrorCounter: 3,
        datasourceLastError: 'HTTP 500',
        createdAtDate: new Date(now.getTime() + minutes(1)).toISOString(),
      },
    ]);
    await kit.t.db.update(datasources).set({ errorCounter: 0, lastError: null }).where(eq(datasources.id, id));
    await evaluateRule(deps, { ruleId, now: new Date(now.getTime() + minutes(3)) });
    expect(sent.map((s) => s.notification.type)).toEqual(['alert.datasource.error', 'alert.datasource.fixed']);
    expect(sent[1]!.notification.texts).toEqual({ sms: 'Weather fixed' });
  });
});

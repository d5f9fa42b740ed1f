import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesTestKit } from '@/server/modules/devices/devices.test-kit';
import { insertNotificationChannel } from '@/server/modules/notification-channels/notification-channels.queries';
import { insertDeviceGroup } from './alerts.test-kit';

const BASE = '/api/alertRule';

let kit: Awaited<ReturnType<typeof devicesTestKit>>;
let channelId: number;
let otherChannelId: number;

beforeAll(async () => {
  kit = await devicesTestKit();
  channelId = (
    await insertNotificationChannel(kit.t.db, {
      customerId: kit.customerId,
      name: 'Ops',
      channelType: 'EMAIL',
      notify: ['ops@example.com'],
    })
  ).id;
  otherChannelId = (
    await insertNotificationChannel(kit.t.db, {
      customerId: kit.otherCustomerId,
      name: 'Theirs',
      channelType: 'EMAIL',
      notify: ['x@example.com'],
    })
  ).id;
});
afterAll(() => kit.t.close());

const deviceRule = (overrides: Record<string, unknown> = {}) => ({
  '@type': 'DeviceOffline',
  name: `Lobby ${crypto.randomUUID().slice(0, 8)}`,
  comment: '',
  enabled: true,
  condition: { '@type': 'DeviceOfflineAndNoActivityForMinutes', inactiveMinutes: 15, deviceGroupId: kit.root.id, recursive: true },
  workingDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true },
  workingTime: { allDay: false, from: '08:00', end: '18:00', timeZone: 'Europe/Berlin' },
  notificationChannels: [{ id: channelId }],
  alertSmsTemplate: '{deviceName} offline since {since}',
  ...overrides,
});
const create = (body: unknown, token = kit.technician) => kit.t.request('POST', BASE, { token, json: body });

describe('alert rules (spec 2 "Alert rule")', () => {
  it('creates, reads, lists (simple, simplePaged), replaces and deletes a rule', async () => {
    const res = await create(deviceRule({ name: 'Lobby screens' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      '@type': 'DeviceOffline',
      dtype: 'DeviceOffline',
      name: 'Lobby screens',
      enabled: true,
      condition: {
        '@type': 'DeviceOfflineAndNoActivityForMinutes',
        inactiveMinutes: 15,
        deviceGroupId: kit.root.id,
        recursive: true,
        excludeDeviceIds: [],
        excludeDeviceGroupIds: [],
      },
      evaluate: { id: res.body.id, evaluateCount: 0, violationCount: 0 },
      scheduledEvaluateSeconds: 300,
      delayEvaluateAfterViolationMinutes: 0,
      workingTime: { allDay: false, from: '08:00', end: '18:00', timeZone: 'Europe/Berlin' },
      notificationChannels: [{ id: channelId, name: 'Ops' }],
      version: 0,
      teamAccessList: { teams: [] },
      readOnly: false,
      customerId: kit.customerId,
      alertSmsTemplate: '{deviceName} offline since {since}',
    });
    const id = res.body.id as number;
    expect((await kit.t.request('GET', `${BASE}/${id}`, { token: kit.technician })).body).toMatchObject({ id, name: 'Lobby screens' });
    const page = await kit.t.request('GET', `${BASE}?search=${encodeURIComponent('name~lobby s')}`, { token: kit.technician });
    expect(page.body).toMatchObject({ totalElements: 1, content: [{ id }] });
    expect((await kit.t.request('GET', `${BASE}/simple`, { token: kit.technician })).body.content).toContainEqual({
      id,
      name: 'Lobby screens',
      readOnly: false,
    });
    expect((await kit.t.request('GET', `${BASE}/simplePaged?size=1`, { token: kit.technician })).body).toMatchObject({ size: 1 });

    const put = await kit.t.request('PUT', `${BASE}/${id}`, {
      token: kit.technician,
      json: deviceRule({ name: 'Lobby', scheduledEvaluateSeconds: 60, notificationChannels: [], alertSmsTemplate: null }),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'Lobby', scheduledEvaluateSeconds: 60, notificationChannels: [], version: 1 });
    expect(put.body.alertSmsTemplate).toBeUndefined();

    expect((await kit.t.request('DELETE', `${BASE}/${id}`, { token: kit.technician })).status).toBe(204);
    expect((await kit.t.request('GET', `${BASE}/${id}`, { token: kit.technician })).status).toBe(404);
  });

  it('creates a DatasourceError rule and refuses changing @type', async () => {
    const res = await create({
      '@type': 'DatasourceError',
      name: 'Feeds',
      condition: { threshold: 3 },
      workingDays: null,
      workingTime: { allDay: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ '@type': 'DatasourceError', condition: { '@type': 'DatasourceRefreshErrorCondition', threshold: 3 } });
    expect(res.body.workingDays).toBeUndefined();
    expect(res.body.nextEvaluationDate).toBeUndefined();
    const put = await kit.t.request('PUT', `${BASE}/${res.body.id}`, { token: kit.technician, json: deviceRule({ name: 'Feeds' }) });
    expect(put.status).toBe(400);
    expect(put.body.key).toBe('alertRule.error.typeImmutable');
  });

  it.each([
    ['null workingTime', { workingTime: null }, 'request.error.invalid'],
    ['a missing workingDays', { workingDays: undefined }, 'request.error.invalid'],
    [
      'a bounded window without a zone',
      { workingTime: { allDay: false, from: '08:00', end: '18:00' } },
      'request.error.invalidCombination',
    ],
    ['from/end without allDay and without a zone', { workingTime: { from: '08:00', end: '18:00' } }, 'request.error.invalidCombination'],
    [
      'an end before its start',
      { workingTime: { allDay: false, from: '18:00', end: '08:00', timeZone: 'UTC' } },
      'request.error.invalidCombination',
    ],
    ['an end equal to its start', { workingTime: { from: '08:00', end: '08:00', timeZone: 'UTC' } }, 'request.error.invalidCombination'],
    ['an unknown zone', { workingTime: { allDay: true, timeZone: 'Mars/Olympus' } }, 'request.error.invalid'],
    ['scheduledEvaluateSeconds below 60', { scheduledEvaluateSeconds: 59 }, 'request.error.invalid'],
    [
      'an inline channel',
      { notificationChannels: [{ name: 'New', channelType: 'EMAIL', notify: ['a@example.com'] }] },
      'request.error.invalid',
    ],
    ['a channel twice', { notificationChannels: [{ id: 1 }, { id: 1 }] }, 'request.error.invalidCombination'],
    ['a condition of the other type', { condition: { '@type': 'DatasourceRefreshErrorCondition', threshold: 2 } }, 'request.error.invalid'],
    ['an unknown @type', { '@type': 'Nonsense' }, 'request.error.invalid'],
    [
      'inactiveMinutes 0',
      { condition: { inactiveMinutes: 0, deviceGroupId: '00000000-0000-4000-8000-000000000000' } },
      'request.error.invalid',
    ],
    [
      'a bad tag operator',
      {
        condition: {
          inactiveMinutes: 5,
          deviceGroupId: '00000000-0000-4000-8000-000000000000',
          tagFilter: { tags: ['a'], logicalOperator: 'XOR', tagFilterType: 'INCLUDE' },
        },
      },
      'request.error.invalid',
    ],
    ['a blank name', { name: '  ' }, 'request.error.invalid'],
  ])('refuses %s with 400', async (_label, overrides, key) => {
    const res = await create(deviceRule(overrides));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.key).toBe(key);
  });

  it('refuses a threshold out of range and a duplicate name (409)', async () => {
    const base = { '@type': 'DatasourceError', workingDays: {}, workingTime: { allDay: true } };
    expect((await create({ ...base, name: 'T0', condition: { threshold: 0 } })).status).toBe(400);
    expect((await create({ ...base, name: 'T26', condition: { threshold: 26 } })).status).toBe(400);
    expect((await create({ ...base, name: 'Twice', condition: { threshold: 1 } })).status).toBe(201);
    const again = await create({ ...base, name: 'Twice', condition: { threshold: 1 } });
    expect(again.status).toBe(409);
    expect(again.body.key).toBe('alertRule.error.nameExists');
  });

  it('refuses another tenant’s folder, devices, folders and channels, and unknown channels, with 404', async () => {
    const theirDevice = await kit.device({}, kit.otherRoot);
    const cases = [
      deviceRule({ notificationChannels: [{ id: otherChannelId }] }),
      deviceRule({ notificationChannels: [{ id: 987_654_321 }] }),
      deviceRule({ condition: { inactiveMinutes: 5, deviceGroupId: kit.otherRoot.id } }),
      deviceRule({ condition: { inactiveMinutes: 5, deviceGroupId: kit.root.id, excludeDeviceIds: [theirDevice.id] } }),
      deviceRule({ condition: { inactiveMinutes: 5, deviceGroupId: kit.root.id, excludeDeviceGroupIds: [kit.otherRoot.id] } }),
    ];
    for (const body of cases) expect((await create(body)).status, JSON.stringify(body)).toBe(404);
    const mine = await create(deviceRule());
    expect((await kit.t.request('GET', `${BASE}/${mine.body.id}`, { token: kit.otherTechnician })).status).toBe(404);
    expect((await kit.t.request('PUT', `${BASE}/${mine.body.id}`, { token: kit.otherTechnician, json: deviceRule() })).status).toBe(404);
    expect((await kit.t.request('DELETE', `${BASE}/${mine.body.id}`, { token: kit.otherTechnician })).status).toBe(404);
  });

  it('lets TECHNICIAN manage and refuses APPROVER; team assignment is OWNER’s', async () => {
    expect((await create(deviceRule(), kit.approver)).status).toBe(403);
    expect((await kit.t.request('GET', BASE, { token: kit.approver })).status).toBe(403);
    const rule = await create(deviceRule());
    const team = await kit.t.request('POST', '/api/team', { token: kit.owner, json: { name: `Night ${crypto.randomUUID().slice(0, 6)}` } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const body = { assignToTeams: [{ teamId: team.body.id, readOnly: true }] };
    const path = `${BASE}/updateTeamAssignments?alertRuleId=${rule.body.id}`;
    expect((await kit.t.request('POST', path, { token: kit.technician, json: body })).status).toBe(403);
    const assigned = await kit.t.request('POST', path, { token: kit.owner, json: body });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect((await kit.t.request('GET', `${BASE}/${rule.body.id}`, { token: kit.owner })).body.teamAccessList).toEqual({
      teams: [{ id: team.body.id, name: team.body.name, readOnly: true }],
    });
  });

  it('keeps a channel a rule uses from being deleted (409 notificationChannel.error.inUse)', async () => {
    const channel = await insertNotificationChannel(kit.t.db, {
      customerId: kit.customerId,
      name: 'Used',
      channelType: 'EMAIL',
      notify: ['u@example.com'],
    });
    const rule = await create(deviceRule({ notificationChannels: [{ id: channel.id }] }));
    expect(rule.status).toBe(201);
    const del = await kit.t.request('DELETE', `/api/alertRuleNotificationChannel/${channel.id}`, { token: kit.technician });
    expect(del.status).toBe(409);
    expect(del.body.key).toBe('notificationChannel.error.inUse');
    await kit.t.request('DELETE', `${BASE}/${rule.body.id}`, { token: kit.technician });
    expect((await kit.t.request('DELETE', `/api/alertRuleNotificationChannel/${channel.id}`, { token: kit.technician })).status).toBe(204);
  });

  it('accepts a folder below the root, exclusions of the customer and a tag filter', async () => {
    const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Floor 1');
    const device = await kit.device({}, folder);
    const res = await create(
      deviceRule({
        condition: {
          inactiveMinutes: 30,
          deviceGroupId: folder.id.toUpperCase(),
          recursive: false,
          excludeDeviceIds: [device.id, device.id],
          excludeDeviceGroupIds: [folder.id],
          tagFilter: { tags: ['lobby'], logicalOperator: 'OR', tagFilterType: 'EXCLUDE' },
        },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.condition).toEqual({
      '@type': 'DeviceOfflineAndNoActivityForMinutes',
      inactiveMinutes: 30,
      deviceGroupId: folder.id,
      recursive: false,
      excludeDeviceIds: [device.id],
      excludeDeviceGroupIds: [folder.id],
      tagFilter: { tags: ['lobby'], logicalOperator: 'OR', tagFilterType: 'EXCLUDE' },
    });
  });
});

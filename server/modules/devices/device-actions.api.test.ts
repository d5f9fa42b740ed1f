import { and, desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { createLogger } from '@/server/logger';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { connectDeviceSocket, DELIVERY_MARK_DELAY_MS, newDevice } from '@/server/modules/display/display.test-kit';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
// Through the module's public face, as the webhooks module calls it.
import { runDeviceAction, type DeviceActionEffect, type DeviceActionTarget } from '.';
import type { DeviceCommandEntry } from './device-commands.schemas';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { deviceCommands, devices } from './devices.table';

/*
 * The webhook device actions (spec 3 "Webhook action", spec 5 §4) as the webhooks module calls them: with a webhook
 * key's actor, inside the execution's transaction. Each effect over each kind of target, the socket of a connected
 * screen, the key's teams, other tenants' ids, bad parameters.
 */

let k: DevicesTestKit;
let t: DevicesTestKit['t'];
let base: string;

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
  base = await t.listen();
});
afterAll(() => t.close());

function keyActor(customerId: number, options: { restricted?: boolean; id?: string; name?: string } = {}): ApiKeyActor {
  return {
    kind: 'apiKey',
    apiKeyId: options.id ?? uuidv7(),
    name: options.name ?? 'Door sensor',
    customerId,
    customerName: 'Tenant',
    scopes: ['WEBHOOK_CALL'],
    restricted: options.restricted ?? false,
  };
}

/** As the webhooks module calls it: the key's context, its database an open transaction. */
function run(actor: ApiKeyActor, target: DeviceActionTarget, effect: DeviceActionEffect) {
  const ctx: ServiceContext<ApiKeyActor> = {
    db: t.db,
    config: t.config,
    storage: t.storage,
    actor,
    scope: { kind: 'customer', customerId: actor.customerId, explicit: false },
    requestId: uuidv7(),
    log: createLogger('silent'),
    proof: {},
  };

  return withTransaction(t.db, (tx) => runDeviceAction({ ...ctx, db: tx }, { target, effect }));
}

const key = () => keyActor(k.customerId);
const row = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)).limit(1))[0]!;
const commandsOf = (deviceId: string, name: string) =>
  t.db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.name, name)))
    .orderBy(desc(deviceCommands.issuedAt));

/** One action base of spec 3 as the effect the webhooks module passes, the command it becomes and what a state effect leaves. */
type Case = {
  title: string;
  effect: (contentId: string) => DeviceActionEffect;
  /** The command row's name and parameters. */
  command: (contentId: string) => { name: string; params: Record<string, unknown> };
  record?: (device: Awaited<ReturnType<typeof row>>, contentId: string) => void;
};

const same =
  (name: string, params: Record<string, unknown> = {}) =>
  () => ({ name, params });

/** The fourteen device bases (ENABLE_ and DISABLE_EMERGENCY are one effect), in an order that lets each be seen. */
const EFFECTS: Case[] = [
  {
    title: 'ENABLE_EMERGENCY_ON_DEVICE',
    effect: () => ({ name: 'emergency', emergencyStatus: true }),
    command: same('emergency', { emergencyStatus: true }),
    record: (d) => expect(d.emergencyStatus).toBe(true),
  },
  {
    title: 'DISABLE_EMERGENCY_ON_DEVICE',
    effect: () => ({ name: 'emergency', emergencyStatus: false }),
    command: same('emergency', { emergencyStatus: false }),
    record: (d) => expect(d.emergencyStatus).toBe(false),
  },
  {
    title: 'LOAD_URL_ON_DEVICE',
    effect: () => ({ name: 'loadUrl', url: 'https://example.com/menu?x=1', durationMs: 30_000 }),
    command: same('loadUrl', { url: 'https://example.com/menu?x=1', durationMs: 30_000 }),
  },
  { title: 'PAUSE_CONTENT_ON_DEVICE', effect: () => ({ name: 'pauseContent' }), command: same('pauseContent') },
  { title: 'RESUME_CONTENT_ON_DEVICE', effect: () => ({ name: 'resumeContent' }), command: same('resumeContent') },
  { title: 'REFRESH_CONTENT_ON_DEVICE', effect: () => ({ name: 'refreshContent' }), command: same('refreshContent') },
  {
    title: 'SEND_SENSOR_EVENT_TO_DEVICE',
    effect: () => ({ name: 'sensorEvent', sensorData: { door: 'open', temperature: 21.5, ids: [1, 2] } }),
    command: same('sensorEvent', { sensorData: { door: 'open', temperature: 21.5, ids: [1, 2] } }),
  },
  { title: 'RESTART_DEVICE', effect: () => ({ name: 'restart' }), command: same('restart') },
  {
    title: 'ASSIGN_CONTENT_ON_DEVICE',
    effect: (contentId) => ({ name: 'assignContent', contentId }),
    command: (contentId) => ({ name: 'assignContent', params: { contentId, asAssigned: true, asEmergency: false } }),
    record: (d, contentId) => expect(d).toMatchObject({ contentId, emergencyContentId: null }),
  },
  {
    title: 'PREVIEW_CONTENT_ON_DEVICE',
    effect: (contentId) => ({ name: 'previewContent', contentId, durationMs: 20_000 }),
    command: (contentId) => ({ name: 'previewContent', params: { contentId, durationMs: 20_000 } }),
  },
  { title: 'WAKE_UP_DEVICE', effect: () => ({ name: 'wakeUp' }), command: same('wakeUp') },
  { title: 'SNOOZE_DEVICE', effect: () => ({ name: 'snooze' }), command: same('snooze') },
  {
    title: 'SHOW_TOAST_MESSAGE_DEVICE',
    effect: () => ({ name: 'showToast', message: '  Meeting in room 2 starts now  ' }),
    command: same('showToast', { message: 'Meeting in room 2 starts now' }),
  },
  {
    title: 'CHANGE_VOLUME_DEVICE',
    effect: () => ({ name: 'volume', level: 35 }),
    command: same('volume', { level: 35 }),
    record: (d) => expect(d.settings).toMatchObject({ volume: 35 }),
  },
];

const SUFFIXES = ['(one device)', '_TAG', '_GROUP', '_ALL'] as const;
type Suffix = (typeof SUFFIXES)[number];

/** A target with the key that acts, the devices it must reach, one it must not, and content of the key's tenant. */
type Fixture = { target: DeviceActionTarget; actor: ApiKeyActor; inside: string[]; outside: string; contentId: string };

async function fixtures(): Promise<Record<Suffix, Fixture>> {
  const contentId = (await k.content(k.customerId, 'Action menu')).id;
  // One device: the named ones (an id in capitals names the same device).
  const [named1, named2, notNamed] = [await k.device(), await k.device(), await k.device()];
  // _TAG: any of the tags, in their case.
  const [lobby, foyer, shouting] = [
    await k.device({ tags: ['lobby', 'north'] }),
    await k.device({ tags: ['Foyer'] }),
    await k.device({ tags: ['LOBBY'] }),
  ];
  // _GROUP: in the folder and below it.
  const hall = await k.folder('Action hall');
  const [inHall, belowHall, beside] = [
    await k.device({}, hall),
    await k.device({}, await k.folder('Action hall east', hall)),
    await k.device({}, await k.folder('Action annex')),
  ];
  // _ALL: every device of a tenant of its own, none of another.
  const tenant = await t.factories.customer();
  const tenantRoot = await k.rootFolder(tenant.id);
  const all = [(await k.device({}, tenantRoot)).id, (await k.device({}, tenantRoot)).id];
  const elsewhere = await k.device({}, k.otherRoot);

  return {
    '(one device)': {
      target: { kind: 'devices', deviceIds: [named1.id, named2.id.toUpperCase()] },
      actor: key(),
      inside: [named1.id, named2.id],
      outside: notNamed.id,
      contentId,
    },
    _TAG: {
      target: { kind: 'tags', tags: ['lobby', 'Foyer'] },
      actor: key(),
      inside: [lobby.id, foyer.id],
      outside: shouting.id,
      contentId,
    },
    _GROUP: {
      target: { kind: 'folders', folderIds: [hall.id] },
      actor: key(),
      inside: [inHall.id, belowHall.id],
      outside: beside.id,
      contentId,
    },
    _ALL: {
      target: { kind: 'all' },
      actor: keyActor(tenant.id),
      inside: all,
      outside: elsewhere.id,
      contentId: (await k.content(tenant.id, 'Their menu')).id,
    },
  };
}

// Built once: the devices of one target must not match another's (a second set would double the tagged devices).
let built: Promise<Record<Suffix, Fixture>> | undefined;

describe.each(SUFFIXES)('each effect over the target %s', (suffix) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = (await (built ??= fixtures()))[suffix];
  });

  it.each(EFFECTS)('$title: the command reaches exactly the targeted devices, a state effect changes their record', async (c) => {
    const { target, actor, inside, outside, contentId } = fixture;
    const command = c.command(contentId);
    const before = (await commandsOf(inside[0]!, command.name)).length;
    expect(await run(actor, target, c.effect(contentId))).toEqual({ affected: 2, detail: `${command.name} sent to 2 devices` });
    for (const id of inside) {
      const sent = await commandsOf(id, command.name);
      expect(sent).toHaveLength(before + 1);
      expect(sent[0]).toMatchObject({ params: command.params, acknowledgedAt: null });
      expect(sent[0]!.expiresAt.getTime() - sent[0]!.issuedAt.getTime()).toBeGreaterThan(9 * 60_000);
      c.record?.(await row(id), contentId);
    }
    expect(await commandsOf(outside, command.name)).toHaveLength(0);
  });
});

describe('a connected screen', () => {
  it('gets a one-shot command over its socket at once, and its history lists it', async () => {
    const screen = await newDevice(t, { customerId: k.customerId });
    const { frames, socket } = await connectDeviceSocket(t, base, screen);
    try {
      const result = await run(
        key(),
        { kind: 'devices', deviceIds: [screen.deviceId] },
        { name: 'showToast', message: 'Fire drill at 10:00', durationMs: 8_000 },
      );
      expect(result.affected).toBe(1);
      await expect
        .poll(() => frames.find((f) => f.type === 'command'))
        .toMatchObject({
          command: { name: 'showToast', params: { message: 'Fire drill at 10:00', durationMs: 8_000 }, id: expect.any(String) },
        });
      // A state effect: the command, and the manifest moved.
      await run(key(), { kind: 'devices', deviceIds: [screen.deviceId] }, { name: 'emergency', emergencyStatus: true });
      await expect.poll(() => frames.some((f) => f.type === 'command' && (f.command as { name: string }).name === 'emergency')).toBe(true);
      await expect.poll(() => frames.some((f) => f.type === 'manifestChanged')).toBe(true);
      expect((await row(screen.deviceId)).emergencyStatus).toBe(true);
      // Not acknowledged by this screen: each is marked delivered on its own once the wait for an ack is over.
      const history = async () =>
        (
          (await t.request('GET', `/api/v2/device/${screen.deviceId}/commands?customerId=${k.customerId}`, { token: k.viewer }))
            .body as DeviceCommandEntry[]
        ).map((e) => [e.name, e.status]);
      await expect.poll(history, { timeout: DELIVERY_MARK_DELAY_MS + 5_000 }).toEqual([
        ['emergency', 'DELIVERED'],
        ['showToast', 'DELIVERED'],
      ]);
    } finally {
      socket.close();
    }
  });
});

describe("the key's teams", () => {
  it('a restricted key reaches only the devices of its teams it may change; a named one outside them is not found', async () => {
    const tenant = await t.factories.customer();
    const root = await k.rootFolder(tenant.id);
    const [mine, readOnly, teamLess] = [await k.device({}, root), await k.device({}, root), await k.device({}, root)];
    const team = uuidv7();
    await t.db.insert(teams).values({ id: team, customerId: tenant.id, name: 'Lobby team' });
    const restricted = keyActor(tenant.id, { restricted: true });
    await t.db.insert(teamAssignments).values([
      { teamId: team, resourceType: 'webhookApiKey', resourceId: restricted.apiKeyId, customerId: tenant.id },
      { teamId: team, resourceType: 'device', resourceId: mine.id, customerId: tenant.id },
      { teamId: team, resourceType: 'device', resourceId: readOnly.id, customerId: tenant.id, readOnly: true },
    ]);
    expect(await run(restricted, { kind: 'all' }, { name: 'restart' })).toMatchObject({ affected: 1 });
    expect(await commandsOf(mine.id, 'restart')).toHaveLength(1);
    expect(await commandsOf(readOnly.id, 'restart')).toHaveLength(0);
    expect(await commandsOf(teamLess.id, 'restart')).toHaveLength(0);
    await expect(run(restricted, { kind: 'devices', deviceIds: [teamLess.id] }, { name: 'restart' })).rejects.toMatchObject({
      status: 404,
      key: 'device.error.notFound',
      message: `No device with id ${teamLess.id}`,
    });
    await expect(run(restricted, { kind: 'devices', deviceIds: [mine.id, readOnly.id] }, { name: 'restart' })).rejects.toMatchObject({
      status: 403,
      key: 'team.error.readOnly',
    });
    // Nothing of a refused action stays.
    expect(await commandsOf(mine.id, 'restart')).toHaveLength(1);
    // A key in no team, not restricted: every device of the tenant (the tenant's default full access).
    expect(await run(keyActor(tenant.id), { kind: 'all' }, { name: 'restart' })).toMatchObject({ affected: 3 });
  });
});

describe('names that are not there', () => {
  it("another tenant's device or folder, an unknown id and a malformed one are NotFoundError naming the id; nothing is sent", async () => {
    const mine = await k.device();
    const theirs = await k.device({}, k.otherRoot);
    const theirFolder = await k.folder('Their folder', k.otherRoot);
    const unknown = uuidv7();
    const restart: DeviceActionEffect = { name: 'restart' };
    for (const [target, error] of [
      [
        { kind: 'devices', deviceIds: [mine.id, theirs.id] },
        { key: 'device.error.notFound', message: `No device with id ${theirs.id}` },
      ],
      [
        { kind: 'devices', deviceIds: [unknown] },
        { key: 'device.error.notFound', message: `No device with id ${unknown}` },
      ],
      [{ kind: 'devices', deviceIds: ["1' or '1'='1"] }, { key: 'device.error.notFound' }],
      [
        { kind: 'folders', folderIds: [theirFolder.id] },
        { key: 'deviceGroup.error.notFound', message: `No deviceGroup with id ${theirFolder.id}` },
      ],
      [
        { kind: 'folders', folderIds: [k.root.id, unknown] },
        { key: 'deviceGroup.error.notFound', message: `No deviceGroup with id ${unknown}` },
      ],
    ] as [DeviceActionTarget, { key: string; message?: string }][]) {
      await expect(run(key(), target, restart), JSON.stringify(target)).rejects.toMatchObject({
        status: 404,
        ...error,
      });
    }
    expect(await commandsOf(mine.id, 'restart')).toHaveLength(0);
    expect(await commandsOf(theirs.id, 'restart')).toHaveLength(0);
  });

  it("another tenant's content is NotFoundError for assign and preview; the device keeps its content", async () => {
    const d = await k.device();
    const theirs = await k.content(k.otherCustomerId, 'Not yours');
    for (const effect of [
      { name: 'assignContent', contentId: theirs.id },
      { name: 'previewContent', contentId: theirs.id },
      { name: 'previewContent', contentId: 'not-an-id' },
    ] as const) {
      await expect(run(key(), { kind: 'devices', deviceIds: [d.id] }, effect)).rejects.toMatchObject({
        status: 404,
        key: 'deviceContent.error.notFound',
      });
    }
    expect(await row(d.id)).toMatchObject({ contentId: null });
    expect(await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, d.id))).toEqual([]);
  });

  it('tags or a tenant matching no device reach 0 devices, which is no error', async () => {
    expect(await run(key(), { kind: 'tags', tags: ['nobody-has-this-tag'] }, { name: 'wakeUp' })).toEqual({
      affected: 0,
      detail: 'wakeUp reached no device: no device tagged nobody-has-this-tag that this caller may change',
    });
    const empty = await t.factories.customer();
    expect(await run(keyActor(empty.id), { kind: 'all' }, { name: 'snooze' })).toMatchObject({ affected: 0 });
  });
});

describe('parameters', () => {
  const one = async (): Promise<DeviceActionTarget> => ({ kind: 'devices', deviceIds: [(await k.device()).id] });

  it.each([
    ['a volume above 100', { name: 'volume', level: 101 }, 'volumeLevel'],
    ['a volume below 0', { name: 'volume', level: -1 }, 'volumeLevel'],
    ['a fractional volume', { name: 'volume', level: 2.5 }, 'volumeLevel'],
    ['a volume that is text', { name: 'volume', level: '50' as unknown as number }, 'volumeLevel'],
    ['a javascript: address', { name: 'loadUrl', url: 'javascript:alert(1)' }, 'url'],
    ['an ftp address', { name: 'loadUrl', url: 'ftp://example.com/file' }, 'url'],
    ['no address', { name: 'loadUrl', url: '' }, 'url'],
    ['an address that is no URL', { name: 'loadUrl', url: 'http://' }, 'url'],
    ['a very long address', { name: 'loadUrl', url: `https://example.com/${'a'.repeat(3_000)}` }, 'url'],
    ['a duration of 0', { name: 'loadUrl', url: 'https://example.com', durationMs: 0 }, 'durationMs'],
    ['a duration over a day', { name: 'showToast', message: 'Hi', durationMs: 86_400_001 }, 'durationMs'],
    ['an empty toast', { name: 'showToast', message: '   ' }, 'message'],
    ['a toast with NUL', { name: 'showToast', message: 'a\u0000b' }, 'message'],
    ['a toast with a lone surrogate', { name: 'showToast', message: 'a\uD800b' }, 'message'],
    ['a toast too long', { name: 'showToast', message: 'x'.repeat(1_001) }, 'message'],
    ['sensor data with NUL in a key', { name: 'sensorEvent', sensorData: { 'a\u0000': 1 } }, 'sensorData'],
    [
      'sensor data nested 1 000 deep',
      { name: 'sensorEvent', sensorData: JSON.parse(`${'['.repeat(1_000)}${']'.repeat(1_000)}`) },
      'sensorData',
    ],
    ['sensor data over 64 KiB', { name: 'sensorEvent', sensorData: { text: 'x'.repeat(70_000) } }, 'sensorData'],
    ['sensor data that is no JSON', { name: 'sensorEvent', sensorData: { when: 10n } }, 'sensorData'],
    ['an emergency status that is text', { name: 'emergency', emergencyStatus: 'true' as unknown as boolean }, 'emergencyStatus'],
    ['an unknown effect', { name: 'selfDestruct' } as unknown as DeviceActionEffect, 'action'],
  ] as [string, DeviceActionEffect, string][])(
    'refuse %s with a ValidationError naming the parameter',
    async (_title, effect, parameter) => {
      await expect(run(key(), await one(), effect)).rejects.toMatchObject({
        status: 400,
        key: 'request.error.invalid',
        details: { parameter },
      });
    },
  );

  it.each([
    ['no device', { kind: 'devices', deviceIds: [] }, 'request.error.invalid'],
    ['no folder', { kind: 'folders', folderIds: [] }, 'request.error.invalid'],
    ['no tag', { kind: 'tags', tags: [] }, 'request.error.invalid'],
    ['a tag that is no tag', { kind: 'tags', tags: ['-x\u0000'] }, 'tag.error.invalid'],
  ] as [string, DeviceActionTarget, string][])('refuse a target with %s', async (_title, target, errorKey) => {
    await expect(run(key(), target, { name: 'restart' })).rejects.toMatchObject({ status: 400, key: errorKey });
  });

  it('keep what a screen can use: the address normalised, sensor data absent as null', async () => {
    const target = await one();
    await run(key(), target, { name: 'loadUrl', url: ' HTTPS://Example.com/a b ' });
    await run(key(), target, { name: 'sensorEvent', sensorData: undefined });
    const id = (target as { deviceIds: string[] }).deviceIds[0]!;
    expect((await commandsOf(id, 'loadUrl'))[0]!.params).toEqual({ url: 'https://example.com/a%20b' });
    expect((await commandsOf(id, 'sensorEvent'))[0]!.params).toEqual({ sensorData: null });
  });
});

describe('the transaction and the audit log', () => {
  it("writes one audit entry naming the key, in the caller's transaction: a rollback leaves neither command nor entry", async () => {
    const d = await k.device();
    const doorbell = keyActor(k.customerId, { name: 'Doorbell key' });
    await run(doorbell, { kind: 'devices', deviceIds: [d.id] }, { name: 'showToast', message: 'Someone is at the door' });
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.actorName, 'Doorbell key'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: 'apiKey',
      actorName: 'Doorbell key',
      customerId: k.customerId,
      entityType: 'device',
      action: 'showToast',
      message: 'Command showToast for 1 device',
      changes: { target: { kind: 'devices', deviceIds: [d.id] }, params: { message: 'Someone is at the door' }, updated: 1 },
    });

    const rolledBack = keyActor(k.customerId, { name: 'Rolled back key' });
    await expect(
      withTransaction(t.db, async (tx) => {
        const ctx = {
          db: tx,
          config: t.config,
          storage: t.storage,
          actor: rolledBack,
          requestId: 'r',
          log: createLogger('silent'),
          proof: {},
        };
        await runDeviceAction(
          { ...ctx, scope: { kind: 'customer', customerId: k.customerId, explicit: false } },
          {
            target: { kind: 'devices', deviceIds: [d.id] },
            effect: { name: 'restart' },
          },
        );
        throw new Error('the execution failed later');
      }),
    ).rejects.toThrow('the execution failed later');
    expect(await commandsOf(d.id, 'restart')).toEqual([]);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.actorName, 'Rolled back key'))).toEqual([]);
  });
});

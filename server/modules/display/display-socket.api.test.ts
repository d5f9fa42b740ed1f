import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino, { type Logger } from 'pino';
import WebSocket from 'ws';
import { openDatabase } from '@/server/db/client';
import { createApp } from '@/server/composition';
import { createNodeListener } from '@/server/http/node-listener';
import { createUpgradeListener, type SocketEndpoint } from '@/server/http/upgrade';
import { createLogger } from '@/server/logger';
import { startModuleSockets } from '@/server/composition';
import { deviceCommands, devices, deviceSocketTickets, deviceStatusChanges } from '@/server/modules/devices/devices.table';
import { markSilentDevicesOffline } from '@/server/modules/devices/devices.queries';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { DELIVERY_MARK_DELAY_MS } from './delivery-marks';
import { CLOSE_POLICY_VIOLATION, CLOSE_REPLACED, CLOSE_SERVICE_RESTART } from './device-frames';
import { SOCKET_TICKETS_PER_DEVICE } from './display.service';
import { DEVICE_MESSAGE_MAX_BYTES } from './display.schemas';
import { asDevice, newDevice, type TestDevice } from './display.test-kit';

/*
 * The player's WebSocket over a real listener (spec 4 §3): ticket, hello, commands pushed and acknowledged,
 * manifest changes, the claim, revocation, delivery across a restart and across two instances.
 */

let t: TestContext;
let base: string;
const silent = createLogger('silent');

beforeAll(async () => {
  t = await createTestContext({ DEVICE_PING_SECONDS: '1' });
  base = await t.listen();
});
afterAll(() => t.close());

type Frame = Record<string, any> & { type: string };

/** A device's connection: every frame it received, in order, and a way to wait for the next of a type. */
class Player {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
    socket.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  static async connect(url: string, device: Pick<TestDevice, 'token'>, ticket?: string): Promise<Player> {
    ticket ??= await newTicket(device);
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/display/ws?ticket=${ticket}`);
    const player = new Player(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await player.next('hello');

    return player;
  }

  /** The first frame of `type` not yet taken; waits for it. */
  async next(type: string, where: (f: Frame) => boolean = () => true): Promise<Frame> {
    let found: Frame | undefined;
    await expect.poll(() => (found = this.frames.find((f) => f.type === type && !f.taken && where(f))), { timeout: 5000 }).toBeDefined();
    found!.taken = true;

    return found!;
  }

  send(frame: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(frame));
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close();
    await closed;
  }
}

async function newTicket(device: Pick<TestDevice, 'token'>): Promise<string> {
  const ticket = await asDevice(t, device.token)('POST', '/api/display/wsTicket');
  expect(ticket.status).toBe(200);

  return ticket.body.ticket as string;
}

/** Tries an upgrade and answers the HTTP status of the refusal (or 101 when it opened). */
async function upgradeStatus(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('error', (err) => {
      if (!String(err.message).includes('Unexpected server response')) reject(err);
    });
  });
}

async function tenantWithDevice() {
  const customer = await t.factories.customer();
  const tech = await t.actor('TECHNICIAN', { customerId: customer.id });
  const device = await newDevice(t, { customerId: customer.id });

  return { customerId: customer.id, tech, device };
}

const deviceRow = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)).limit(1))[0]!;
const command = (customerId: number, token: string, name: string, deviceId: string, extra = '') =>
  t.request('POST', `/api/v2/device/${name}?customerId=${customerId}&search=${encodeURIComponent(`id=${deviceId}`)}${extra}`, { token });

describe('the ticket', () => {
  it('is single use: a bad, missing or used ticket gets an HTTP 401 before the upgrade, not a hang', async () => {
    const { device } = await tenantWithDevice();
    const ws = `${base.replace(/^http/, 'ws')}/api/display/ws`;
    const missing = await upgradeStatus(ws);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ status: 401, key: 'display.error.invalidTicket' });
    expect((await upgradeStatus(`${ws}?ticket=${'x'.repeat(43)}`)).status).toBe(401);
    const ticket = (await asDevice(t, device.token)('POST', '/api/display/wsTicket')).body as { ticket: string; expiresAt: number };
    expect(ticket.expiresAt - Date.now()).toBeGreaterThan(25_000);
    expect(ticket.expiresAt - Date.now()).toBeLessThanOrEqual(30_000);
    expect((await upgradeStatus(`${ws}?ticket=${ticket.ticket}`)).status).toBe(101);
    expect((await upgradeStatus(`${ws}?ticket=${ticket.ticket}`)).status).toBe(401);
  });

  it('is for devices: a user token gets 401 asking for one; any other API path refuses the upgrade with 404', async () => {
    const { tech } = await tenantWithDevice();
    expect((await t.request('POST', '/api/display/wsTicket', { token: tech.token })).status).toBe(401);
    expect((await upgradeStatus(`${base.replace(/^http/, 'ws')}/api/v2/user/me`)).status).toBe(404);
  });
});

describe('a connected device', () => {
  it('hears hello, goes ONLINE, gets a command at once and acknowledges it over the socket', async () => {
    const { customerId, tech, device } = await tenantWithDevice();
    const player = await Player.connect(base, device);
    const hello = player.frames.find((f) => f.type === 'hello')!;
    expect(hello).toMatchObject({ heartbeatSeconds: 60, manifestEtag: expect.any(String), serverTime: expect.any(Number) });
    expect(await deviceRow(device.deviceId)).toMatchObject({ deviceStatus: 'ONLINE', everConnected: true });
    const transitions = await t.db.select().from(deviceStatusChanges).where(eq(deviceStatusChanges.deviceId, device.deviceId));
    expect(transitions.map((c) => c.status)).toEqual(['ONLINE']);

    const history = () => t.request('GET', `/api/v2/device/${device.deviceId}/commands?customerId=${customerId}`, { token: tech.token });
    expect((await command(customerId, tech.token, 'restart', device.deviceId)).body).toEqual({ updated: 1 });
    const pushed = await player.next('command');
    // The console sees it delivered (not acknowledged within the mark's delay: marked on its own), then acknowledged.
    const sentAround = Date.now();
    await expect
      .poll(async () => (await history()).body[0], { timeout: DELIVERY_MARK_DELAY_MS + 5_000 })
      .toMatchObject({ id: pushed.command.id, name: 'restart', status: 'DELIVERED', deliveredAt: expect.any(String) });
    // At the time it was sent, not when the mark was written.
    expect(Math.abs(Date.parse((await history()).body[0].deliveredAt) - sentAround)).toBeLessThan(DELIVERY_MARK_DELAY_MS / 2);
    expect(pushed.command).toMatchObject({
      id: expect.any(String),
      name: 'restart',
      params: {},
      issuedAt: expect.any(Number),
      expiresAt: expect.any(Number),
    });
    player.send({ type: 'ack', commandId: pushed.command.id, ok: true, result: { restarted: true } });
    await expect
      .poll(async () => (await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, pushed.command.id)))[0])
      .toMatchObject({ ok: true, result: { restarted: true }, acknowledgedAt: expect.any(Date) });
    await expect
      .poll(async () => (await history()).body[0])
      .toMatchObject({ status: 'ACKNOWLEDGED', ok: true, acknowledgedAt: expect.any(String) });
    // Another tenant's user does not see the device's commands.
    const stranger = await t.actor('VIEWER');
    expect((await t.request('GET', `/api/v2/device/${device.deviceId}/commands`, { token: stranger.token })).status).toBe(404);
    // Acknowledged: the heartbeat no longer lists it.
    expect((await asDevice(t, device.token)('POST', '/api/display/heartbeat', {})).body.commands).toEqual([]);
    await player.close();
  });

  it("records one of two acks of a command sent together whole (no error, never a mix), and refuses another tenant's command", async () => {
    const mine = await tenantWithDevice();
    const theirs = await tenantWithDevice();
    const player = await Player.connect(base, mine.device);
    await command(mine.customerId, mine.tech.token, 'restart', mine.device.deviceId);
    const pushed = await player.next('command');
    // Both frames arrive within one batch of acks: one statement meets the command twice.
    player.send({ type: 'ack', commandId: pushed.command.id, ok: true, result: { first: true } });
    player.send({ type: 'ack', commandId: pushed.command.id, ok: false, error: 'second' });
    const row = async (id: string) => (await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, id)))[0]!;
    await expect.poll(async () => (await row(pushed.command.id)).acknowledgedAt).toBeInstanceOf(Date);
    const acked = await row(pushed.command.id);
    expect([acked.ok, acked.error]).toEqual(acked.ok ? [true, null] : [false, 'second']);
    // Recorded by the ack, at the time it was sent.
    expect(acked.deliveredAt!.getTime()).toBeLessThanOrEqual(acked.acknowledgedAt!.getTime());

    // Another tenant's command, sent to its screen and named by this device: unknown here, untouched there, and its
    // delivery is still recorded (the foreign ack took nothing from it).
    const theirPlayer = await Player.connect(base, theirs.device);
    await command(theirs.customerId, theirs.tech.token, 'restart', theirs.device.deviceId);
    const foreign = (await theirPlayer.next('command')).command;
    player.send({ type: 'ack', commandId: foreign.id, ok: true });
    expect(await player.next('error')).toMatchObject({ key: 'deviceCommand.error.notFound' });
    expect(await row(foreign.id)).toMatchObject({ acknowledgedAt: null, ok: null });
    expect(player.frames.filter((f) => f.type === 'error')).toHaveLength(1);
    await expect.poll(async () => (await row(foreign.id)).deliveredAt, { timeout: DELIVERY_MARK_DELAY_MS + 5_000 }).toBeInstanceOf(Date);
    expect(await row(foreign.id)).toMatchObject({ acknowledgedAt: null, ok: null });
    await theirPlayer.close();
    await player.close();
  });

  it('hears manifestChanged with the new ETag when a state-setting command changes its record', async () => {
    const { customerId, tech, device } = await tenantWithDevice();
    const player = await Player.connect(base, device);
    const before = player.frames[0]!.manifestEtag as string;
    expect((await command(customerId, tech.token, 'volume', device.deviceId, '&level=20')).status).toBe(200);
    const changed = await player.next('manifestChanged');
    expect(changed.etag).not.toBe(before);
    expect(changed.etag).toBe((await asDevice(t, device.token)('POST', '/api/display/heartbeat', {})).body.manifestEtag);
    await player.close();
  });

  it('answers heartbeat frames by keeping it seen, and bad frames with an error frame', async () => {
    const { device } = await tenantWithDevice();
    const player = await Player.connect(base, device);
    player.send({ type: 'heartbeat', version: '9.1.0', localIpAddress: '192.168.1.20' });
    await expect.poll(async () => (await deviceRow(device.deviceId)).version).toBe('9.1.0');
    // The same facts again are not written again (the row changed behind the connection's back keeps its value);
    // different ones are. Frames are handled in order, so the error frame below follows the repeat's handling.
    await t.db.update(devices).set({ version: 'changed elsewhere' }).where(eq(devices.id, device.deviceId));
    player.send({ type: 'heartbeat', version: '9.1.0', localIpAddress: '192.168.1.20' });
    player.send({ type: 'reboot' });
    await player.next('error');
    expect((await deviceRow(device.deviceId)).version).toBe('changed elsewhere');
    player.send({ type: 'heartbeat', version: '9.2.0', localIpAddress: '192.168.1.20' });
    await expect.poll(async () => (await deviceRow(device.deviceId)).version).toBe('9.2.0');
    player.send({ type: 'ack', commandId: '01900000-0000-7000-8000-000000000000', ok: true });
    expect(await player.next('error')).toMatchObject({ key: 'deviceCommand.error.notFound' });
    player.socket.send('not json');
    expect(await player.next('error')).toMatchObject({ key: 'request.error.invalid' });
    player.send({ type: 'reboot' });
    expect(await player.next('error')).toMatchObject({ status: 400, key: 'request.error.invalid', details: { target: 'frame' } });
    expect(player.socket.readyState).toBe(WebSocket.OPEN);
    await player.close();
  });

  it('holds a frame to the rule of an HTTP body: NUL anywhere or too deep is a 400 error frame, never a database error', async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const own = await instance(t.handle, capture);
    try {
      const { device } = await tenantWithDevice();
      const player = await Player.connect(own.url, device);
      player.socket.send('{"type":"heartbeat","version":"\\u0000"}');
      const { taken: _taken, ...nul } = await player.next('error');
      expect(nul).toEqual({
        type: 'error',
        status: 400,
        key: 'request.error.nulCharacter',
        message: expect.stringContaining('NUL'),
        details: { target: 'frame', path: 'version' },
      });
      player.send({ type: 'heartbeat', deviceInfo: { ['\u0000']: 1 } });
      expect(await player.next('error')).toMatchObject({ status: 400, key: 'request.error.nulCharacter' });
      player.socket.send(`{"type":"heartbeat","deviceInfo":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`);
      expect(await player.next('error')).toMatchObject({ status: 400, key: 'request.error.tooDeep' });
      // The same heartbeat over HTTP: the same 400.
      const http = await asDevice(t, device.token)('POST', '/api/display/heartbeat', { version: '\u0000' });
      expect(http.body).toMatchObject({ status: 400, key: 'request.error.nulCharacter' });
      // Handled in order: a good frame after them is stored, and nothing was logged as failing.
      player.send({ type: 'heartbeat', version: 'after' });
      await expect.poll(async () => (await deviceRow(device.deviceId)).version).toBe('after');
      expect(player.socket.readyState).toBe(WebSocket.OPEN);
      expect(lines).toEqual([]);
      await player.close();
    } finally {
      await own.stop();
    }
  });

  it('an unassigned device connects, shows its code, and hears {type: assigned} when a tenant claims it', async () => {
    const customer = await t.factories.customer();
    const tech = await t.actor('TECHNICIAN', { customerId: customer.id });
    const device = await newDevice(t);
    const player = await Player.connect(base, device);
    const claimed = await t.request('POST', `/api/v2/device/assignToCustomer?customerId=${customer.id}`, {
      token: tech.token,
      json: { activationCode: device.activationCode, deviceName: 'Claimed live', licenseStatus: 'UN_LICENSED', timeZone: 'Europe/Berlin' },
    });
    expect(claimed.status).toBe(200);
    await player.next('assigned');
    // Assigned now: its acknowledgements are taken over the same connection.
    expect((await command(customer.id, tech.token, 'clearCache', device.deviceId)).status).toBe(200);
    const pushed = await player.next('command');
    player.send({ type: 'ack', commandId: pushed.command.id, ok: true });
    await expect
      .poll(async () => (await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, pushed.command.id)))[0]?.acknowledgedAt)
      .toBeInstanceOf(Date);
    await player.close();
  });

  it('is disconnected (4001) when the device is deleted, and when its customer is restricted', async () => {
    const { customerId, tech, device } = await tenantWithDevice();
    const player = await Player.connect(base, device);
    expect((await t.request('DELETE', `/api/device/${device.deviceId}`, { token: tech.token })).status).toBe(204);
    await expect.poll(() => player.closed).toMatchObject({ code: 4001 });

    const other = await tenantWithDevice();
    const second = await Player.connect(base, other.device);
    const admin = await t.actor('ADMIN');
    expect((await t.request('PUT', `/api/customer/${other.customerId}`, { token: admin.token, json: { restricted: true } })).status).toBe(
      200,
    );
    // Restriction is noticed at the next ping round (DEVICE_PING_SECONDS, 1 s here).
    await expect.poll(() => second.closed, { timeout: 5000 }).toMatchObject({ code: 4001 });
    expect(customerId).not.toBe(other.customerId);
  });

  it('stays ONLINE while connected past its heartbeat deadline, and goes OFFLINE after it once disconnected', async () => {
    const { device } = await tenantWithDevice();
    await t.db.update(devices).set({ heartbeatSeconds: 1 }).where(eq(devices.id, device.deviceId));
    const player = await Player.connect(base, device);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await markSilentDevicesOffline(t.db, new Date());
    expect((await deviceRow(device.deviceId)).deviceStatus).toBe('ONLINE');
    await player.close();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await markSilentDevicesOffline(t.db, new Date())).map((d) => d.id)).toContain(device.deviceId);
    expect(await deviceRow(device.deviceId)).toMatchObject({ deviceStatus: 'OFFLINE', lastDeviceStatusChange: expect.any(Date) });
  });
});

describe('what one connection may cost', () => {
  it('a flood of 20 000 heartbeat frames is closed with 1008 after at most the burst, while another tenant is answered', async () => {
    const { device } = await tenantWithDevice();
    const stranger = await tenantWithDevice();
    const { frameBurst, frameRate } = t.config.deviceSockets;
    const player = await Player.connect(base, device);
    const openedAt = performance.now();
    const events: string[] = [];
    const closed = new Promise<number>((resolve) => player.socket.once('close', (code) => resolve(code)));
    void closed.then((code) => events.push(`closed ${code}`));
    // As fast as the client can: frames are handled in order, so the version stored names the last one handled.
    for (let i = 1; i <= 20_000; i++) player.socket.send(`{"type":"heartbeat","version":"${i}"}`);
    events.push('flood sent');
    const headers = { authorization: `Bearer ${stranger.tech.token}` };
    const [list, ready] = await Promise.all([
      fetch(`${base}/api/v2/device?customerId=${stranger.customerId}`, { headers }).then(
        (r) => (events.push(`device list ${r.status}`), r),
      ),
      fetch(`${base}/readyz`).then((r) => (events.push(`readyz ${r.status}`), r)),
    ]);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { content: Array<{ id: string }> }).content.map((d) => d.id)).toEqual([stranger.device.deviceId]);
    expect(ready.status).toBe(200);
    expect(await closed).toBe(CLOSE_POLICY_VIOLATION);
    const seconds = (performance.now() - openedAt) / 1000;
    expect(events.slice(0, 1)).toEqual(['flood sent']);
    expect(events).toEqual(expect.arrayContaining(['device list 200', 'readyz 200', `closed ${CLOSE_POLICY_VIOLATION}`]));
    // Handled: no more than the bucket allowed (what waited when it closed was dropped unread).
    const handled = Number((await deviceRow(device.deviceId)).version ?? 0);
    expect(handled).toBeGreaterThan(0);
    expect(handled).toBeLessThanOrEqual(frameBurst + Math.ceil(frameRate * seconds));
  }, 60_000);

  it('a frame larger than 64 KiB closes the connection with 1009; the same body over HTTP is a 413', async () => {
    const { device } = await tenantWithDevice();
    const player = await Player.connect(base, device);
    const big = { type: 'heartbeat', deviceInfo: { pad: 'x'.repeat(DEVICE_MESSAGE_MAX_BYTES) } };
    player.send(big);
    await expect.poll(() => player.closed).toMatchObject({ code: 1009 });
    const { type: _type, ...body } = big;
    expect((await asDevice(t, device.token)('POST', '/api/display/heartbeat', body)).status).toBe(413);
  });

  it('a device holds at most DEVICE_SOCKETS_PER_DEVICE connections: a new one closes the oldest (4002)', async () => {
    const { device } = await tenantWithDevice();
    const cap = t.config.deviceSockets.socketsPerDevice;
    const players: Player[] = [];
    for (let i = 0; i < cap; i++) players.push(await Player.connect(base, device));
    const newest = await Player.connect(base, device);
    await expect.poll(() => players[0]!.closed).toMatchObject({ code: CLOSE_REPLACED });
    for (const p of [...players.slice(1), newest]) expect(p.socket.readyState).toBe(WebSocket.OPEN);
    // The newest works: it hears what the device is told.
    newest.send({ type: 'heartbeat', version: 'newest' });
    await expect.poll(async () => (await deviceRow(device.deviceId)).version).toBe('newest');
    for (const p of [...players, newest]) await p.close();
  });

  it('a device holds at most 5 unused tickets: a new one drops the oldest', async () => {
    const { device } = await tenantWithDevice();
    const tickets: string[] = [];
    for (let i = 0; i < SOCKET_TICKETS_PER_DEVICE + 3; i++) tickets.push(await newTicket(device));
    const held = await t.db.select().from(deviceSocketTickets).where(eq(deviceSocketTickets.deviceId, device.deviceId));
    expect(held).toHaveLength(SOCKET_TICKETS_PER_DEVICE);
    const ws = `${base.replace(/^http/, 'ws')}/api/display/ws?ticket=`;
    expect((await upgradeStatus(`${ws}${tickets[2]}`)).status).toBe(401);
    const newest = await Player.connect(base, device, tickets.at(-1));
    await newest.close();
  });
});

/** A second server process's worth of sockets on `db`'s database: its own listener and endpoints. */
async function instance(handle: Parameters<typeof startModuleSockets>[0]['handle'], log: Logger = silent) {
  const app = createApp({ db: handle.db, config: t.config, storage: t.storage, log, ready: async () => true });
  const endpoints: SocketEndpoint[] = await startModuleSockets({ handle, config: t.config, storage: t.storage, log });
  const server: Server = createServer(createNodeListener(app.fetch));
  server.on(
    'upgrade',
    createUpgradeListener(() => endpoints, log),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await Promise.all(endpoints.map((e) => e.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('commands live in the database', () => {
  it('an unacknowledged command is delivered again after a restart, once per connection, until acknowledged', async () => {
    const { customerId, tech, device } = await tenantWithDevice();
    const first = await instance(t.handle);
    const player = await Player.connect(first.url, device);
    expect((await command(customerId, tech.token, 'refreshContent', device.deviceId)).status).toBe(200);
    const pushed = await player.next('command');
    // A heartbeat on the same connection does not send it twice.
    player.send({ type: 'heartbeat' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(player.frames.filter((f) => f.type === 'command')).toHaveLength(1);
    await first.stop();
    // A stopping instance tells its devices to reconnect elsewhere soon (1012 Service Restart), not that it went away.
    await expect.poll(() => player.closed).toMatchObject({ code: CLOSE_SERVICE_RESTART });

    const second = await instance(t.handle);
    const again = await Player.connect(second.url, device);
    const redelivered = await again.next('command');
    expect(redelivered.command.id).toBe(pushed.command.id);
    again.send({ type: 'ack', commandId: redelivered.command.id, ok: false, error: 'no network' });
    await expect
      .poll(
        async () =>
          (await t.request('GET', `/api/v2/device/${device.deviceId}/commands?customerId=${customerId}`, { token: tech.token })).body[0],
      )
      .toMatchObject({ status: 'FAILED', error: 'no network' });
    await expect
      .poll(
        async () =>
          (
            await t.db
              .select()
              .from(deviceCommands)
              .where(and(eq(deviceCommands.id, pushed.command.id)))
          )[0],
      )
      .toMatchObject({ ok: false, error: 'no network' });
    await again.close();
    const third = await Player.connect(second.url, device);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(third.frames.filter((f) => f.type === 'command')).toEqual([]);
    await third.close();
    await second.stop();
  });
});

// Two instances need two connections' worth of database: PostgreSQL only (PGlite is one process).
describe.runIf(process.env.DATABASE_URL)('two server instances on one PostgreSQL', () => {
  it('deliver a command issued on one to a device connected to the other, through LISTEN/NOTIFY', async () => {
    const handle = await openDatabase({ kind: 'pg', url: t.databaseUrl!, poolSize: 2 });
    const other = await instance(handle);
    try {
      const { customerId, tech, device } = await tenantWithDevice();
      const player = await Player.connect(other.url, device);
      // Issued through this instance's app (t.request), connected to the other one.
      expect((await command(customerId, tech.token, 'takeHighResPreview', device.deviceId)).status).toBe(200);
      expect((await player.next('command')).command).toMatchObject({ name: 'takeHighResPreview' });
      await player.close();
    } finally {
      await other.stop();
      await handle.close();
    }
  });

  it('answer If-None-Match from their own stored manifest ETag, which a change made on the other drops', async () => {
    const handle = await openDatabase({ kind: 'pg', url: t.databaseUrl!, poolSize: 2 });
    const other = await instance(handle);
    try {
      const { customerId, tech, device } = await tenantWithDevice();
      const manifest = (etag?: string) =>
        fetch(`${other.url}/api/display/manifest`, {
          headers: { authorization: `Bearer ${device.token}`, ...(etag ? { 'if-none-match': `"${etag}"` } : {}) },
        });
      const first = await manifest();
      expect(first.status).toBe(200);
      const { etag } = (await first.json()) as { etag: string };
      expect((await manifest(etag)).status).toBe(304);
      // Changed through this instance: the other drops its stored ETag when the notice arrives.
      expect((await command(customerId, tech.token, 'volume', device.deviceId, '&level=20')).status).toBe(200);
      await expect.poll(async () => (await manifest(etag)).status, { timeout: 5000 }).toBe(200);
    } finally {
      await other.stop();
      await handle.close();
    }
  });
});

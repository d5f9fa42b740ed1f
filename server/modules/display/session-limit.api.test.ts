import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import WebSocket from 'ws';
import { createApp, startModuleSockets } from '@/server/composition';
import { openDatabase } from '@/server/db/client';
import { createNodeListener } from '@/server/http/node-listener';
import { createUpgradeListener, type SocketEndpoint } from '@/server/http/upgrade';
import { createLogger } from '@/server/logger';
import { deviceSessions } from '@/server/modules/devices/devices.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { customers } from '@/server/tenant/customers.table';
import { CLOSE_SESSION_LIMIT } from './device-frames';
import { asDevice, newDevice, type TestDevice } from './display.test-kit';

/*
 * The customer's `deviceSessionLimit` over real WebSockets (issue 33): connected devices past the limit are closed
 * with 4003 and the limit in the reason; a device's own connections never count against it; a closed or expired
 * connection frees its place; concurrent connects cannot overshoot.
 */

let t: TestContext;
let base: string;
let admin: string;
const silent = createLogger('silent');

beforeAll(async () => {
  t = await createTestContext({ DEVICE_PING_SECONDS: '1' });
  base = await t.listen();
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

type Attempt = { socket: WebSocket; opened: boolean; code?: number; reason?: string };

/** Opens a device's WebSocket and answers once it was greeted (`hello`) or closed, whichever came first. */
async function attempt(device: TestDevice, url = base): Promise<Attempt> {
  const ticket = await asDevice(t, device.token)('POST', '/api/display/wsTicket');
  expect(ticket.status).toBe(200);
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/display/ws?ticket=${ticket.body.ticket as string}`);

  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      if ((JSON.parse(data.toString()) as { type: string }).type === 'hello') resolve({ socket, opened: true });
    });
    socket.on('close', (code, reason) => resolve({ socket, opened: false, code, reason: reason.toString() }));
    socket.on('error', reject);
  });
}

async function close(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return;
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.close();
  await closed;
}

async function customerWithDevices(limit: number, count: number) {
  const customer = await t.factories.customer({ deviceSessionLimit: limit });
  const devices: TestDevice[] = [];
  for (let i = 0; i < count; i++) devices.push(await newDevice(t, { customerId: customer.id }));

  return { customerId: customer.id, devices };
}

const connectedCount = async (customerId: number) =>
  (await t.request('GET', `/api/customer/${customerId}/license/dashboard`, { token: admin })).body.activeBrowserSessionCount as number;

describe('deviceSessionLimit', () => {
  it('refuses the device past the limit with 4003 and the limit in the reason; the dashboard counts the connected ones', async () => {
    const { customerId, devices } = await customerWithDevices(2, 3);
    const first = await attempt(devices[0]!);
    const second = await attempt(devices[1]!);
    expect([first.opened, second.opened]).toEqual([true, true]);
    const third = await attempt(devices[2]!);
    expect(third).toMatchObject({ opened: false, code: CLOSE_SESSION_LIMIT });
    expect(third.reason).toContain("the account's limit of 2 connected screens is reached");
    expect(await t.request('GET', `/api/customer/${customerId}/license/dashboard`, { token: admin })).toMatchObject({
      status: 200,
      body: { browserSessionLimit: 2, activeBrowserSessionCount: 2 },
    });

    // A device reconnecting while its old connection still counts is not refused because of itself.
    const again = await attempt(devices[0]!);
    expect(again.opened).toBe(true);
    expect(await connectedCount(customerId)).toBe(2);

    // One disconnects (both its connections): its place is free for another device.
    await close(first.socket);
    await close(again.socket);
    await expect.poll(() => connectedCount(customerId)).toBe(1);
    const late = await attempt(devices[2]!);
    expect(late.opened).toBe(true);
    expect(await connectedCount(customerId)).toBe(2);
    await Promise.all([second, late].map((a) => close(a.socket)));
  });

  it('0 is unlimited', async () => {
    const { customerId, devices } = await customerWithDevices(0, 5);
    const attempts = await Promise.all(devices.map((d) => attempt(d)));
    expect(attempts.map((a) => a.opened)).toEqual([true, true, true, true, true]);
    expect(await connectedCount(customerId)).toBe(5);
    await Promise.all(attempts.map((a) => close(a.socket)));
    await expect.poll(() => connectedCount(customerId)).toBe(0);
  });

  it('admits exactly the limit of devices that connect at once', async () => {
    const { customerId, devices } = await customerWithDevices(3, 6);
    const attempts = await Promise.all(devices.map((d) => attempt(d)));
    expect(attempts.filter((a) => a.opened)).toHaveLength(3);
    expect(attempts.filter((a) => !a.opened).map((a) => a.code)).toEqual([CLOSE_SESSION_LIMIT, CLOSE_SESSION_LIMIT, CLOSE_SESSION_LIMIT]);
    expect(await connectedCount(customerId)).toBe(3);
    await Promise.all(attempts.map((a) => close(a.socket)));
  });

  it('counts another instance’s connection until its lease runs out (a crashed instance), and takes a changed limit at the next connect', async () => {
    const { customerId, devices } = await customerWithDevices(1, 3);
    // A connection of devices[0] held by an instance that died: nothing renews or ends its row.
    const crashed = uuidv7();
    await t.db.insert(deviceSessions).values({
      id: uuidv7(),
      deviceId: devices[0]!.deviceId,
      customerId,
      instanceId: crashed,
      leaseUntil: sql`now() + interval '1 minute'`,
    });
    expect(await connectedCount(customerId)).toBe(1);
    expect((await attempt(devices[1]!)).code).toBe(CLOSE_SESSION_LIMIT);
    await t.db
      .update(deviceSessions)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(deviceSessions.instanceId, crashed));
    expect(await connectedCount(customerId)).toBe(0);
    const second = await attempt(devices[1]!);
    expect(second.opened).toBe(true);
    expect((await attempt(devices[2]!)).code).toBe(CLOSE_SESSION_LIMIT);
    await t.db.update(customers).set({ deviceSessionLimit: 2 }).where(eq(customers.id, customerId));
    const third = await attempt(devices[2]!);
    expect(third.opened).toBe(true);
    expect(await connectedCount(customerId)).toBe(2);
    await Promise.all([second, third].map((a) => close(a.socket)));
  });

  it('frees every place of an instance that stops', async () => {
    const { customerId, devices } = await customerWithDevices(1, 2);
    const other = await instance(t.handle);
    const held = await attempt(devices[0]!, other.url);
    expect(held.opened).toBe(true);
    expect((await attempt(devices[1]!)).code).toBe(CLOSE_SESSION_LIMIT);
    await other.stop();
    expect(await connectedCount(customerId)).toBe(0);
    const next = await attempt(devices[1]!);
    expect(next.opened).toBe(true);
    await close(next.socket);
  });
});

/** A second server process's worth of sockets on `handle`'s database: its own listener and endpoints. */
async function instance(handle: Parameters<typeof startModuleSockets>[0]['handle']) {
  const app = createApp({ db: handle.db, config: t.config, storage: t.storage, log: silent, ready: async () => true });
  const endpoints: SocketEndpoint[] = await startModuleSockets({ handle, config: t.config, storage: t.storage, log: silent });
  const server: Server = createServer(createNodeListener(app.fetch));
  server.on(
    'upgrade',
    createUpgradeListener(() => endpoints, silent),
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

// Two instances with their own connections: PostgreSQL only (PGlite is one process and one connection).
describe.runIf(process.env.DATABASE_URL)('deviceSessionLimit across two instances on one PostgreSQL', () => {
  it('admits exactly the limit of devices connecting at once to either instance', async () => {
    const handle = await openDatabase({ kind: 'pg', url: t.databaseUrl!, poolSize: 4 });
    const other = await instance(handle);
    try {
      const { customerId, devices } = await customerWithDevices(3, 8);
      const attempts = await Promise.all(devices.map((d, i) => attempt(d, i % 2 === 0 ? base : other.url)));
      expect(attempts.filter((a) => a.opened)).toHaveLength(3);
      expect(await connectedCount(customerId)).toBe(3);
      await Promise.all(attempts.map((a) => close(a.socket)));
    } finally {
      await other.stop();
      await handle.close();
    }
  });
});

import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { basic, type TestContext } from '@/server/test/harness';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';

/** Test helpers for the player API: registering devices, their tokens, and assigning them without the claim route. */

type Answer = { status: number; headers: Headers; body: any };

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }

  return { status: res.status, headers: res.headers, body };
}

/** A client address of its own, so the per-address registration limit of one test does not reach another. */
export function randomAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** POST /public-api/display/register from `address` (the in-process bridge's client address). */
export async function register(t: TestContext, body: Record<string, unknown> = {}, address = randomAddress()): Promise<Answer> {
  const res = await t.app.request(
    '/public-api/display/register',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SCREEN', platform: 'BROWSER', ...body }),
    },
    { bridgeClientAddress: address },
  );

  return answer(res);
}

/** POST /oauth/token with grant_type=client_credentials and HTTP Basic deviceId:secret. */
export async function deviceTokenRequest(
  t: TestContext,
  deviceId: string,
  secret: string,
  form: Record<string, string> = { grant_type: 'client_credentials' },
): Promise<Answer> {
  const res = await t.app.request('/oauth/token', {
    method: 'POST',
    headers: { authorization: basic(deviceId, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

  return answer(res);
}

export type TestDevice = { deviceId: string; secret: string; token: string; activationCode?: string };

/** A registered device with a live token; assigned to `customerId`'s root folder (directly in the database) when given. */
export async function newDevice(
  t: TestContext,
  options: { customerId?: number; body?: Record<string, unknown> } = {},
): Promise<TestDevice> {
  const registered = await register(t, options.body);
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const { deviceId, deviceSecret, activationCode } = registered.body as { deviceId: string; deviceSecret: string; activationCode?: string };
  if (options.customerId !== undefined) await assignInDatabase(t, deviceId, options.customerId);
  const token = await deviceTokenRequest(t, deviceId, deviceSecret);
  if (token.status !== 200) throw new Error(`device token failed: ${JSON.stringify(token.body)}`);

  return { deviceId, secret: deviceSecret, token: token.body.access_token as string, activationCode };
}

/** Puts the device into the customer's root device folder as a claim does, without the claim route. */
export async function assignInDatabase(t: TestContext, deviceId: string, customerId: number, name = 'Test screen'): Promise<void> {
  const [root] = await t.db
    .select()
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, customerId), isNull(deviceGroups.parentId)))
    .limit(1);
  await t.db
    .update(devices)
    .set({ customerId, deviceGroupId: root!.id, groupPath: root!.path, name, activationCode: null, activationCodeExpiresAt: null })
    .where(eq(devices.id, deviceId));
}

/** A request with a device's (or anyone's) bearer token. */
export function asDevice(t: TestContext, token: string) {
  return (method: string, path: string, json?: unknown) => t.request(method, path, { token, json });
}

/** A frame of the device WebSocket as tests read it. */
export type DeviceFrame = { type: string; [key: string]: unknown };

/**
 * Opens a device's WebSocket on the listening test server at `base` (a ticket first, as a player does) and answers
 * once its `hello` arrived, with every frame it receives from then on.
 */
export async function connectDeviceSocket(
  t: TestContext,
  base: string,
  device: TestDevice,
): Promise<{ frames: DeviceFrame[]; socket: WebSocket }> {
  const ticket = await asDevice(t, device.token)('POST', '/api/display/wsTicket');
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/display/ws?ticket=${ticket.body.ticket as string}`);
  const frames: DeviceFrame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as DeviceFrame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await expect.poll(() => frames.some((f) => f.type === 'hello')).toBe(true);

  return { frames, socket };
}

/** How long a socket's delivery waits for its ack before it is marked on its own (a test polls past it). */
export { DELIVERY_MARK_DELAY_MS } from './delivery-marks';

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { devices } from '@/server/modules/devices/devices.table';
import { connectDeviceSocket, newDevice } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import type { WebhookExecutor } from './webhook-executor';
import { testExecutor } from './webhooks.test-kit';

/*
 * Device actions end to end (spec 5 §4, spec 4 §3): a trigger becomes device commands through the console's command
 * path, and a connected screen receives them over its socket at once.
 */

let t: TestContext;
let base: string;
let executor: WebhookExecutor;
let customerId: number;
let technician: string;
let key: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  executor = testExecutor(t);
  customerId = (await t.factories.customer()).id;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  key = (await t.request('POST', '/api/webhooks/apikey', { token: technician, json: { name: 'Fire panel' } })).body.token;
});
afterAll(async () => {
  executor.stop();
  await t.close();
});

async function action(body: Record<string, unknown>): Promise<void> {
  const res = await t.request('POST', '/api/webhookEvent/actions', {
    token: technician,
    json: { name: `Action ${body.eventId}`, enabled: true, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const fire = (eventId: string, payload: Record<string, unknown> = {}) =>
  t.request('POST', '/public-api/integration/webhooks', { json: { event_id: eventId, ...payload }, headers: { 'x-webhook-apikey': key } });

describe('device actions', () => {
  it('a toast to tagged screens and the emergency for a folder reach a connected screen; the audit log names the key', async () => {
    const screen = await newDevice(t, { customerId });
    const elsewhere = await newDevice(t, { customerId });
    await t.db
      .update(devices)
      .set({ tags: ['lobby'] })
      .where(eq(devices.id, screen.deviceId));
    const [root] = await t.db.select({ folder: devices.deviceGroupId }).from(devices).where(eq(devices.id, screen.deviceId));
    const { frames, socket } = await connectDeviceSocket(t, base, screen);
    try {
      await action({ eventId: 'welcome', action: 'SHOW_TOAST_MESSAGE_DEVICE_TAG', actionParams: { tag: 'lobby' } });
      await action({ eventId: 'fire', action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP', targetId: root!.folder });
      await action({ eventId: 'quiet', action: 'CHANGE_VOLUME_DEVICE', targetId: screen.deviceId });

      expect((await fire('welcome', { message: 'Welcome, Ms Rivera' })).status).toBe(202);
      // The trigger woke this process's executor: the screen hears it without anyone draining.
      await expect
        .poll(() => frames.find((f) => f.type === 'command'))
        .toMatchObject({ command: { name: 'showToast', params: { message: 'Welcome, Ms Rivera' } } });

      expect((await fire('fire')).status).toBe(202);
      await expect.poll(() => frames.some((f) => f.type === 'command' && (f.command as { name: string }).name === 'emergency')).toBe(true);
      await expect.poll(() => frames.some((f) => f.type === 'manifestChanged')).toBe(true);
      const emergency = await t.db
        .select({ id: devices.id, on: devices.emergencyStatus })
        .from(devices)
        .where(eq(devices.customerId, customerId));
      expect(emergency.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [screen.deviceId, elsewhere.deviceId].sort().map((id) => ({ id, on: true })),
      );

      expect((await fire('quiet', { volumeLevel: 15 })).status).toBe(202);
      await expect.poll(() => frames.some((f) => f.type === 'command' && (f.command as { name: string }).name === 'volume')).toBe(true);
      await executor.drain();
      const history = await t.request('GET', `/api/v2/device/${screen.deviceId}/commands`, { token: technician });
      expect(history.body.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['showToast', 'emergency', 'volume']));
      const entries = await t.db
        .select({ kind: auditLog.actorKind, name: auditLog.actorName, action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.customerId, customerId), eq(auditLog.entityType, 'device')));
      expect(entries).toEqual(expect.arrayContaining([{ kind: 'apiKey', name: 'Fire panel', action: 'showToast' }]));
    } finally {
      socket.close();
    }
  });

  it('a volume out of range, or a deleted screen, fails the execution with the reason', async () => {
    const screen = await newDevice(t, { customerId });
    await action({ eventId: 'loud', action: 'CHANGE_VOLUME_DEVICE', targetId: screen.deviceId });
    const id = (await t.request('GET', `/api/webhookEvent/actions?search=${encodeURIComponent('eventId=loud')}`, { token: technician }))
      .body.content[0].id;
    expect((await fire('loud', { volumeLevel: 101 })).status).toBe(202);
    await t.db.delete(devices).where(eq(devices.id, screen.deviceId));
    expect((await fire('loud', { volumeLevel: 50 })).status).toBe(202);
    await executor.drain();
    const executions = (await t.request('GET', `/api/webhookEvent/actions/${id}/executions`, { token: technician })).body.content;
    expect(executions.map((e: { outcome: string }) => e.outcome)).toEqual(['FAILED', 'FAILED']);
    expect(executions[0].detail).toMatch(/device/i);
    expect(executions[1].detail).toMatch(/volume/i);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@/server/outbound/outbound.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { DELIVERY_LEASE_MS } from './delivery-worker';
import { queueNotifications, type AlertNotification } from './index';
import { notificationDeliveries } from './notification-deliveries.table';
import { testDeliveryWorker } from './notification-deliveries.test-kit';

/*
 * kill -9 during a burst of deliveries (issue 32, spec 5 §5): a worker in a process of its own (delivery-worker.child.ts)
 * sends a burst to a slow receiver and is killed with SIGKILL half-way; a worker of this process then sends the rest.
 * None is lost; only attempts that were in flight at the kill may arrive twice, with the same `webhook-id`
 * (at-least-once). Two processes on one database: PostgreSQL only.
 */

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'delivery-worker.child.ts');
const BURST = 120;
/** The production worker's concurrency: at most this many attempts are in flight when it dies. */
const IN_FLIGHT_AT_MOST = 16;

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
});
afterAll(() => t.close());

const notification = (customerId: number, i: number): AlertNotification => ({
  type: 'alert.datasource.error',
  timestamp: '2026-11-30T08:00:00.000Z',
  data: {
    alertId: i,
    alertRuleId: 4,
    alertRuleName: 'Feeds',
    customerId,
    datasource: { id: '0190a6a2-0000-7000-8000-0000000000d5', name: `Feed ${i}`, errorCounter: 3, lastError: 'HTTP 503' },
  },
});

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode);

  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
}

describe.skipIf(!process.env.DATABASE_URL)('a delivery worker killed with SIGKILL during a burst (PostgreSQL: two processes)', () => {
  it('loses no delivery; only those in flight at the kill arrive twice, with the same webhook-id', async () => {
    // Each answer takes 100 ms, so the burst lasts and the kill lands in its middle.
    const receiver = await startServer((_request, response) => {
      setTimeout(() => response.writeHead(200).end('ok'), 100);
    });
    let child: ChildProcess | undefined;
    try {
      const customerId = (await t.factories.customer()).id;
      const technician = (await t.actor('TECHNICIAN', { customerId })).token;
      const created = await t.request('POST', '/api/alertRuleNotificationChannel', {
        token: technician,
        json: { name: `Burst ${uuidv7()}`, comment: '', channelType: 'WEBHOOK', notify: [`${receiver.origin}/burst`] },
      });
      expect(created.status).toBe(201);
      for (let i = 0; i < BURST; i++)
        await queueNotifications(t.db, { customerId, channelIds: [created.body.id], notification: notification(customerId, i) });

      child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl, AUTH_SECRET: t.config.authSecret, ALLOW_PRIVATE_NETWORK_FETCH: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.stdout!.on('data', (d) => (stderr += d));
      const ids = () => receiver.requests.map((r) => String(r.headers['webhook-id']));
      const sentSoFar = () => {
        if (child!.exitCode !== null) throw new Error(`the worker process: ${stderr}`);

        return ids().length;
      };
      await expect.poll(sentSoFar, { timeout: 60_000 }).toBeGreaterThanOrEqual(BURST / 3);
      child.kill('SIGKILL');
      expect(await exited(child)).toBe('SIGKILL');
      const beforeKill = new Set(ids());
      expect(beforeKill.size, stderr).toBeLessThan(BURST);

      // Another worker, once the dead one's leases have run out.
      const worker = testDeliveryWorker(t);
      try {
        await worker.drain(new Date(Date.now() + DELIVERY_LEASE_MS + 1_000));
      } finally {
        worker.stop();
      }
      const received = ids();
      expect(new Set(received).size).toBe(BURST);
      const twice = received.filter((id, i) => received.indexOf(id) !== i);
      expect(twice.length).toBeLessThanOrEqual(IN_FLIGHT_AT_MOST);
      for (const id of twice) expect(beforeKill.has(id)).toBe(true);
      const states = await t.db
        .select({ state: notificationDeliveries.state })
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.channelId, created.body.id));
      expect(states.map((s) => s.state)).toEqual(Array(BURST).fill('DELIVERED'));
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await receiver.close();
    }
    // A bound, not an expectation: a second process starts (tsx) and a burst is sent on a busy machine.
  }, 180_000);
});

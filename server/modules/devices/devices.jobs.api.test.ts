import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteOldMetricSamples, METRIC_RETENTION_DAYS, runOfflineSweeps, sweepOfflineDevices } from './devices.jobs';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { deviceMetricSamples, devices, deviceStatusChanges } from './devices.table';

let k: DevicesTestKit;
let t: DevicesTestKit['t'];

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
});
afterAll(() => t.close());

const NOW = new Date(Date.UTC(2026, 10, 25, 12));
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

describe('offline sweep', () => {
  it('marks devices silent past 2.5 × their heartbeat OFFLINE, records the transition, and leaves the others', async () => {
    const silent = await k.device({ name: 'Silent', deviceStatus: 'ONLINE', lastSeen: ago(151), heartbeatSeconds: 60 });
    const fresh = await k.device({ name: 'Fresh', deviceStatus: 'ONLINE', lastSeen: ago(149), heartbeatSeconds: 60 });
    const slowBeat = await k.device({ name: 'Slow beat', deviceStatus: 'ONLINE', lastSeen: ago(600), heartbeatSeconds: 300 });
    const unclaimed = await k.device({ name: 'Unclaimed', deviceStatus: 'ONLINE', lastSeen: ago(3600) }, null);
    const offline = await k.device({ name: 'Already', deviceStatus: 'OFFLINE', lastSeen: ago(3600) });

    expect(await sweepOfflineDevices(t.db, NOW)).toBeGreaterThanOrEqual(2);
    const status = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)))[0]!;
    expect(await status(silent.id)).toMatchObject({ deviceStatus: 'OFFLINE', lastDeviceStatusChange: NOW });
    expect((await status(fresh.id)).deviceStatus).toBe('ONLINE');
    expect((await status(slowBeat.id)).deviceStatus).toBe('ONLINE');
    expect((await status(unclaimed.id)).deviceStatus).toBe('OFFLINE');
    expect((await status(offline.id)).lastDeviceStatusChange).toBeNull();
    const changes = await t.db.select().from(deviceStatusChanges).where(eq(deviceStatusChanges.deviceId, silent.id));
    expect(changes).toMatchObject([{ status: 'OFFLINE', customerId: k.customerId, changedAt: NOW }]);
    // A second pass changes nothing more.
    expect(await sweepOfflineDevices(t.db, NOW)).toBe(0);
  });

  it('sweeps four times a minute within its one-minute schedule', async () => {
    const waits: number[] = [];
    await runOfflineSweeps(t.db, { sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([15_000, 15_000, 15_000]);
  });

  it('ends between sweeps when the instance stops, instead of holding its stop for the rest of the minute', async () => {
    const stopping = new AbortController();
    const waits: number[] = [];
    await runOfflineSweeps(t.db, {
      stopping: stopping.signal,
      sleep: async (ms) => {
        waits.push(ms);
        stopping.abort();
      },
    });
    expect(waits).toEqual([15_000]);
  });

  it('by default sleeps on a timer the stop cuts short', async () => {
    const stopping = new AbortController();
    const run = runOfflineSweeps(t.db, { stopping: stopping.signal });
    // The first sweep, then the 15 s wait: the abort ends it (the test's timeout is the bound, not a measurement).
    stopping.abort();
    await run;
  });
});

describe('metric retention', () => {
  it('deletes the samples older than the retention period, in batches, and keeps the newer ones', async () => {
    const device = await k.device({ name: 'Metered' });
    const day = 86_400_000;
    const old = Array.from({ length: 10_005 }, (_, i) => ({
      deviceId: device.id,
      type: 'CPU',
      sampledAt: new Date(NOW.getTime() - (METRIC_RETENTION_DAYS + 1) * day - i * 1000),
      value: i,
    }));
    const kept = [{ deviceId: device.id, type: 'CPU', sampledAt: new Date(NOW.getTime() - (METRIC_RETENTION_DAYS - 1) * day), value: 1 }];
    for (let i = 0; i < old.length; i += 2000) await t.db.insert(deviceMetricSamples).values(old.slice(i, i + 2000));
    await t.db.insert(deviceMetricSamples).values(kept);

    expect(await deleteOldMetricSamples(t.db, NOW)).toBe(10_005);
    const left = await t.db.select().from(deviceMetricSamples).where(eq(deviceMetricSamples.deviceId, device.id));
    expect(left.map((r) => r.value)).toEqual([1]);
  });
});

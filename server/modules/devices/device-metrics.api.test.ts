import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { deviceMetricSamples } from './devices.table';

let k: DevicesTestKit;
let t: DevicesTestKit['t'];

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
});
afterAll(() => t.close());

const T0 = Date.UTC(2026, 10, 1);
const MIN = 60_000;

describe('device metrics', () => {
  it('answers the types a device reports, and graphs in equal buckets with totals and the gaps', async () => {
    const d = await k.device({ name: 'Metrics' });
    // CPU: 10 and 30 in the first 10 minutes, 50 in the third; nothing in the second. Memory once.
    await t.db.insert(deviceMetricSamples).values([
      { deviceId: d.id, type: 'CPU', sampledAt: new Date(T0 + 1 * MIN), value: 10 },
      { deviceId: d.id, type: 'CPU', sampledAt: new Date(T0 + 9 * MIN), value: 30 },
      { deviceId: d.id, type: 'CPU', sampledAt: new Date(T0 + 25 * MIN), value: 50 },
      { deviceId: d.id, type: 'CPU', sampledAt: new Date(T0 + 45 * MIN), value: 99 },
      { deviceId: d.id, type: 'USED_SYS_MEM', sampledAt: new Date(T0 + 2 * MIN), value: 512 },
    ]);
    const supported = await t.request('GET', `/api/deviceStat/${d.id}/supportedMetrics`, { token: k.viewer });
    expect(supported.status, JSON.stringify(supported.body)).toBe(200);
    expect(supported.body).toEqual(['CPU', 'USED_SYS_MEM']);

    const res = await t.request('POST', `/api/deviceStat/${d.id}/graphs?from=${T0}&to=${T0 + 40 * MIN}&dataPoints=4`, {
      token: k.viewer,
      json: { metricTypes: ['CPU', 'BATTERY'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.graphs.CPU).toEqual({
      values: { [String(T0)]: 20, [String(T0 + 20 * MIN)]: 50 },
      avg: 30,
      min: 10,
      max: 50,
      sum: 90,
      count: 3,
      noDataIntervals: [
        { from: T0 + 10 * MIN, to: T0 + 20 * MIN },
        { from: T0 + 30 * MIN, to: T0 + 40 * MIN },
      ],
    });
    expect(res.body.graphs.BATTERY).toEqual({
      values: {},
      avg: null,
      min: null,
      max: null,
      sum: 0,
      count: 0,
      noDataIntervals: [{ from: T0, to: T0 + 40 * MIN }],
    });
    // Only `to`, early: the default week before it starts at 1970, not before.
    const early = await t.request('POST', `/api/deviceStat/${d.id}/graphs?to=${40 * MIN}&dataPoints=4`, {
      token: k.viewer,
      json: { metricTypes: ['BATTERY'] },
    });
    expect(early.body.graphs.BATTERY.noDataIntervals).toEqual([{ from: 0, to: 40 * MIN }]);
  });

  it('refuses an unknown type, too many data points or a reversed range (400), another tenant (404)', async () => {
    const d = await k.device({ name: 'Metrics 2' });
    const graphs = (query: string, json: unknown, token = k.viewer) =>
      t.request('POST', `/api/deviceStat/${d.id}/graphs?${query}`, { token, json });
    expect((await graphs('', { metricTypes: ['CPU'] })).status).toBe(200);
    expect((await graphs('', { metricTypes: ['TEMPERATURE_OF_THE_SUN'] })).status).toBe(400);
    expect((await graphs('', { metricTypes: [] })).status).toBe(400);
    expect((await graphs('dataPoints=1001', { metricTypes: ['CPU'] })).status).toBe(400);
    expect((await graphs('dataPoints=0', { metricTypes: ['CPU'] })).status).toBe(400);
    expect((await graphs(`from=${T0}&to=${T0 - 1}`, { metricTypes: ['CPU'] })).body).toMatchObject({
      status: 400,
      key: 'request.error.invalidCombination',
    });
    expect((await graphs('', { metricTypes: ['CPU'] }, k.otherTechnician)).status).toBe(404);
    expect((await t.request('GET', `/api/deviceStat/${d.id}/supportedMetrics`, { token: k.otherTechnician })).status).toBe(404);
  });
});

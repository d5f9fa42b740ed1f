import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { startJobQueue, type JobQueue } from '@/server/jobs/queue';
import { createLogger } from '@/server/logger';
import { connectDeviceSocket, newDevice } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { startMetricsListener } from './listener';

/*
 * GET /metrics (Prometheus text format): who may read it, that it parses, and that what the service does shows in it
 * with bounded labels (route templates, never ids, tenants or raw paths).
 */

const TOKEN = 'metrics-token-0123456789abcdef';
const silent = createLogger('silent');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The exposition's samples; a line that is neither a comment nor a sample fails the test. */
function parseExposition(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) typed.add(type[1]!);
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`Not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of sample[2]?.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[key!] = value!;
    const name = sample[1]!;
    // A histogram's series (_bucket, _sum, _count) belong to the family its TYPE line names.
    expect(typed.has(name) || typed.has(name.replace(/_(bucket|sum|count)$/, ''))).toBe(true);
    samples.push({ name, labels, value: Number(sample[3]) });
  }

  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('not configured', () => {
  let t: TestContext;
  beforeAll(async () => {
    // METRICS_PORT alone: the main port does not serve the metrics.
    t = await createTestContext({ METRICS_PORT: '9464' });
  });
  afterAll(() => t.close());

  it('answers 404 like an unknown path, with or without a token', async () => {
    const headerSets: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of headerSets) {
      const res = await t.request('GET', '/metrics', { headers });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, key: 'request.error.notFound' });
    }
  });
});

describe('with METRICS_TOKEN', () => {
  let t: TestContext;
  const queues: JobQueue[] = [];
  beforeAll(async () => {
    t = await createTestContext({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    for (const queue of queues) await queue.stop();
    await t.close();
  });

  const scrape = async () => {
    const res = await t.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);

    return { res, text: await res.text() };
  };
  const samples = async () => parseExposition((await scrape()).text);

  it.each([
    ['no credentials', {}],
    ['a wrong token', { authorization: `Bearer ${TOKEN}x` }],
    ['a prefix of the token', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['the token as Basic credentials', { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` }],
    ['the token without a scheme', { authorization: TOKEN }],
  ])('refuses %s with 401', async (_name, headers: Record<string, string>) => {
    const res = await t.request('GET', '/metrics', { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, key: 'auth.error.unauthorized' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers the text exposition format, which parses, with the process metrics', async () => {
    const { res, text } = await scrape();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const all = parseExposition(text);
    const names = new Set(all.map((s) => s.name));
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'signage_websocket_devices_connected',
      'signage_device_commands_pending',
      'signage_db_pool_connections',
    ])
      expect(names).toContain(name);
    expect(valueOf(all, 'signage_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
  });

  it('counts requests by route template, once per template however many ids, with no id, tenant or path in any label', async () => {
    const customer = await t.factories.customer({ name: 'Tenant Metrics Label Probe' });
    const { token } = await t.actor('ADMIN', { customerId: customer.id });
    const before = await samples();
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) expect((await t.request('GET', `/api/v2/device/${id}?customerId=${customer.id}`, { token })).status).toBe(404);
    for (const id of ids.slice(0, 2)) expect((await t.request('GET', `/api/no-such-thing/${id}`)).status).toBe(404);

    const { text } = await scrape();
    const after = parseExposition(text);
    const route = { route: '/api/v2/device/{id}', method: 'GET', status: '404' };
    expect(valueOf(after, 'signage_http_requests_total', route) - valueOf(before, 'signage_http_requests_total', route)).toBe(4);
    expect(after.filter((s) => s.name === 'signage_http_requests_total' && s.labels.route === '/api/v2/device/{id}')).toHaveLength(1);
    const unmatched = { route: 'unmatched', method: 'GET', status: '404' };
    expect(valueOf(after, 'signage_http_requests_total', unmatched) - valueOf(before, 'signage_http_requests_total', unmatched)).toBe(2);
    expect(
      valueOf(after, 'signage_http_request_duration_seconds_count', { route: '/api/v2/device/{id}', method: 'GET' }),
    ).toBeGreaterThanOrEqual(4);
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain('Tenant Metrics Label Probe');
    expect(text).not.toContain('no-such-thing');
    expect(text).not.toContain(`customerId=${customer.id}`);
  });

  it('shows a connected device socket, a command pending then delivered over it, and the socket gone', async () => {
    const base = await t.listen();
    const customer = await t.factories.customer();
    const tech = await t.actor('TECHNICIAN', { customerId: customer.id });
    const device = await newDevice(t, { customerId: customer.id });
    const before = await samples();
    const { frames, socket } = await connectDeviceSocket(t, base, device);
    expect(valueOf(await samples(), 'signage_websocket_devices_connected')).toBe(
      valueOf(before, 'signage_websocket_devices_connected') + 1,
    );

    const issued = await t.request(
      'POST',
      `/api/v2/device/restart?customerId=${customer.id}&search=${encodeURIComponent(`id=${device.deviceId}`)}`,
      { token: tech.token },
    );
    expect(issued.body).toEqual({ updated: 1 });
    await expect.poll(() => frames.some((f) => f.type === 'command')).toBe(true);
    const during = await samples();
    expect(valueOf(during, 'signage_device_commands_pending')).toBe(valueOf(before, 'signage_device_commands_pending') + 1);
    expect(valueOf(during, 'signage_device_commands_delivered_total')).toBe(valueOf(before, 'signage_device_commands_delivered_total') + 1);

    socket.close();
    await expect
      .poll(async () => valueOf(await samples(), 'signage_websocket_devices_connected'))
      .toBe(valueOf(before, 'signage_websocket_devices_connected'));
  });

  it('counts the plays the proof-of-play ingest accepts, not the duplicates', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    const before = valueOf(await samples(), 'signage_proof_of_play_plays_accepted_total');
    const startedAt = Date.now() - 120_000;
    const play = () => ({ eventId: uuidv7(), startedAt, endedAt: startedAt + 10_000, completed: true });
    const first = play();
    const res = await t.request('POST', '/api/display/proofOfPlay', { token: device.token, json: [first, play(), first] });
    expect(res.body).toMatchObject({ accepted: 2, duplicates: 1 });
    expect(valueOf(await samples(), 'signage_proof_of_play_plays_accepted_total')).toBe(before + 2);
  });

  it('shows the waiting jobs per queue and counts a failed job', async () => {
    const queue = await startJobQueue(t.handle, silent, t.databaseUrl);
    queues.push(queue);
    // Created but never run here: the jobs wait.
    await queue.boss.createQueue('metrics.waiting');
    await queue.boss.send('metrics.waiting', {});
    await queue.boss.send('metrics.waiting', {});
    await queue.register([
      {
        name: 'metrics.failing',
        run: async () => {
          throw new Error('fails on purpose');
        },
      },
    ]);
    expect(valueOf(await samples(), 'signage_job_queue_depth', { queue: 'metrics.waiting' })).toBe(2);
    await queue.send('metrics.failing', {}, { retryLimit: 0 });
    await expect
      .poll(async () => valueOf(await samples(), 'signage_job_failures_total', { queue: 'metrics.failing' }), { timeout: 20_000 })
      .toBe(1);
  }, 60_000);
});

describe('statement time (PostgreSQL)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('times every statement of the pool, outside and inside a transaction', async (context) => {
    if (!t.databaseUrl) return context.skip('PGlite: no pool to time');
    const seconds: number[] = [];
    const handle = await openDatabase({ kind: 'pg', url: t.databaseUrl, poolSize: 2, onStatement: (s) => seconds.push(s) });
    try {
      await handle.ping();
      expect(seconds).toHaveLength(1);
      await handle.pool!.query('select 2');
      expect(seconds).toHaveLength(2);
      const client = await handle.pool!.connect();
      await client.query('begin');
      await client.query('select 1');
      await client.query('commit');
      client.release();
      expect(seconds).toHaveLength(5);
      await expect(handle.pool!.query('select * from no_such_table')).rejects.toThrow();
      expect(seconds).toHaveLength(6);
      expect(seconds.every((s) => Number.isFinite(s) && s >= 0)).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('METRICS_PORT: the listener of its own', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('serves GET /metrics without a token and nothing else', async () => {
    const listener = await startMetricsListener({ metrics: t.metrics, host: '127.0.0.1', port: 0, log: silent });
    try {
      const url = `http://127.0.0.1:${listener.port}`;
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(parseExposition(await res.text()).some((s) => s.name === 'signage_device_commands_pending')).toBe(true);
      expect((await fetch(`${url}/api/v2/device`)).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

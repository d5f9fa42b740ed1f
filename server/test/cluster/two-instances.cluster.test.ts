import http from 'node:http';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledRunId } from '@/server/jobs/queue';
import { formatCrc32 } from '@/server/storage/crc32';
import { startCluster, type Cluster } from './launcher';
import { registerScreen, TestScreen, waitUntil } from './screen';

/*
 * Issue 34, "a cluster test on real processes": two production server processes (`npm start`'s build) on one
 * PostgreSQL database and one S3 bucket, behind the test proxy (round robin, HTTP and WebSocket), as an operator runs
 * them. The steps share one cluster and run in order; each says what it proves. Latencies are printed, not asserted
 * (`npm run bench:cluster` is where figures are held to a bound).
 */

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl?.startsWith('postgres'))
  throw new Error('The cluster test needs DATABASE_URL (a PostgreSQL server); see scripts/cluster-test.mjs');

let cluster: Cluster;
let adminToken: string;
let customerId: number;
const screens: TestScreen[] = [];

const note = (message: string) => console.log(`[cluster] ${message}`);

async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();

  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A screen registered and claimed through the proxy, its socket open (on whichever instance the proxy chose). */
async function connectedScreen(name: string): Promise<TestScreen> {
  const device = await registerScreen(cluster.url);
  const claim = await call<{ id: string }>(cluster.url, 'POST', `/api/v2/device/assignToCustomer?customerId=${customerId}`, {
    activationCode: device.activationCode,
    deviceName: name,
    timeZone: 'UTC',
    licenseStatus: 'UN_LICENSED',
  });
  expect(claim.status, JSON.stringify(claim.body)).toBe(200);
  expect(claim.body.id).toBe(device.deviceId);
  const screen = new TestScreen(cluster.url, device);
  screens.push(screen);
  screen.start();
  await waitUntil(`${name} connected`, () => screen.current !== undefined);

  return screen;
}

/** Issues the one-shot `restart` command to one device on `base` (an instance itself, or the proxy). */
async function restartCommand(base: string, deviceId: string): Promise<void> {
  const search = encodeURIComponent(`id=${deviceId}`);
  const res = await call<{ updated: number }>(base, 'POST', `/api/v2/device/restart?customerId=${customerId}&search=${search}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ updated: 1 });
}

const other = (name: string) => cluster.instances.find((i) => i.name !== name)!.name;

beforeAll(async () => {
  const started = Date.now();
  cluster = await startCluster({ serverUrl: serverUrl!, instances: 2 });
  note(`two instances ready behind ${cluster.url} in ${Date.now() - started} ms`);
  const basic = Buffer.from(`default-client:${cluster.admin.clientSecret}`).toString('base64');
  const token = await fetch(`${cluster.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: cluster.admin.email, password: cluster.admin.password }).toString(),
  });
  expect(token.status).toBe(200);
  adminToken = ((await token.json()) as { access_token: string }).access_token;
  const customer = await call<{ id: number }>(cluster.url, 'POST', '/api/customer', { name: 'Cluster tenant' });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  customerId = customer.body.id;
});

afterAll(async () => {
  for (const screen of screens) screen.stop();
  await cluster?.stop();
});

describe('two instances behind a proxy', () => {
  it('a screen connected through the proxy to one instance receives a command issued on the other', async () => {
    const screen = await connectedScreen('Cluster screen 1');
    const landed = screen.current!.backend!;
    const issuer = other(landed);
    const issuedAt = Date.now();
    // Straight to the other instance, bypassing the proxy: only the database (LISTEN/NOTIFY) links the two.
    await restartCommand(cluster.instance(issuer).url, screen.device.deviceId);
    await waitUntil('the command at the screen', () => screen.commands.some((c) => c.name === 'restart'), 10_000);
    const received = screen.commands.find((c) => c.name === 'restart')!;
    expect(received.backend).toBe(landed);
    note(`command issued on instance ${issuer} reached the screen on instance ${landed} ${received.at - issuedAt} ms after the request`);
    // The acknowledgement (sent to the screen's instance) is what the console shows on the other.
    await waitUntil('the acknowledgement seen on the issuing instance', async () => {
      const history = await call<Array<{ id: string; status: string; ok?: boolean }>>(
        cluster.instance(issuer).url,
        'GET',
        `/api/v2/device/${screen.device.deviceId}/commands?customerId=${customerId}`,
      );
      const entry = history.body.find((c) => c.id === received.id);

      return entry?.status === 'ACKNOWLEDGED' && entry.ok === true;
    });
  });

  it('an upload started on one instance completes on the other', async () => {
    const [first, second] = cluster.instances;
    const MiB = 1024 * 1024;
    // Two parts of 5 MiB: every part but the last must be S3's minimum part size.
    const data = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(10 * MiB - 8)]);
    const crc = formatCrc32(zlib.crc32(data));
    const init = await call<{ uploadId: string; maxChunkSize: number }>(
      first!.url,
      'POST',
      `/api/v2/file/upload/init?customerId=${customerId}`,
      {
        name: 'cluster.png',
        size: data.length,
        totalChunks: 2,
        crcChecksum: crc,
      },
    );
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId, maxChunkSize } = init.body;
    const part = async (base: string, n: number, bytes: Buffer) => {
      const res = await fetch(`${base}/api/v2/file/upload/${uploadId}/part/${n}?customerId=${customerId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    await part(first!.url, 1, data.subarray(0, maxChunkSize));
    await part(second!.url, 2, data.subarray(maxChunkSize));
    // The other instance sees both parts (recorded in the shared database) and assembles the file from the bucket.
    const recover = await call<{ uploadedChunks: number[]; missingChunks: number[] }>(
      second!.url,
      'GET',
      `/api/v2/file/upload/${uploadId}/recover?customerId=${customerId}`,
    );
    expect(recover.body).toMatchObject({ uploadedChunks: [1, 2], missingChunks: [] });
    const done = await call<{ id: string; size: number; crcCheckSum: string; location: string }>(
      second!.url,
      'POST',
      `/api/v2/file/upload/${uploadId}/complete?customerId=${customerId}`,
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ size: data.length, crcCheckSum: crc });
    // Both instances serve the same bytes (the first one reads what the second assembled).
    const download = await fetch(`${first!.url}${new URL(done.body.location, cluster.url).pathname}`, {
      headers: { authorization: `Bearer ${adminToken}`, range: 'bytes=5242870-5242889' },
    });
    expect(download.status).toBe(206);
    expect(Buffer.from(await download.arrayBuffer()).equals(data.subarray(5_242_870, 5_242_890))).toBe(true);
  });

  it('a scheduled job runs once per fire time across the two instances', async () => {
    // alerts.evaluate-due fires every 5 s on both instances' clocks; each sends the run with the id of its fire time,
    // so the queue keeps one, which one instance completes. Runs of fire times after both were ready:
    const job = 'alerts.evaluate-due';
    const since = Date.now();
    const firstFire = Math.ceil(since / 5000) * 5000;
    const fireTimes = [firstFire, firstFire + 5000, firstFire + 10_000];
    type Run = { id: string; state: string; retry_count: number };
    const runs = () =>
      cluster.query<Run>(`select id::text, state::text, retry_count from pgboss.job where name = $1 and id = any($2::uuid[])`, [
        job,
        fireTimes.map((at) => scheduledRunId(job, at)),
      ]);
    await waitUntil('three fire times run', async () => (await runs()).filter((r) => r.state === 'completed').length === 3, 60_000);
    const completed = await runs();
    expect(completed).toHaveLength(3);
    // Each ran once: completed on its first attempt (no second instance ran it, nothing retried it).
    for (const run of completed) expect(run).toMatchObject({ state: 'completed', retry_count: 0 });
    // And no run of another id: every run of the job sent since is the run of a fire time of the schedule (one that
    // an instance computed differently, or sent without the id, would be a second run of its time).
    const scheduleIds = new Set<string>();
    for (let at = firstFire - 60_000; at <= Date.now() + 5000; at += 5000) scheduleIds.add(scheduledRunId(job, at));
    const sent = await cluster.query<{ id: string }>(
      `select id::text from pgboss.job where name = $1 and created_on >= to_timestamp($2 / 1000.0)`,
      [job, since],
    );
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.filter((r) => !scheduleIds.has(r.id))).toEqual([]);
  });

  it('SIGKILL of one instance: its screens reconnect through the proxy to the other, get pending commands, report no play twice', async () => {
    for (let i = 0; i < 3; i++) await connectedScreen(`Cluster screen ${i + 2}`);
    for (const screen of screens) screen.startPlaying(100);
    await waitUntil('plays reported', () => screens.every((s) => s.playsMade.size >= 10));
    const victim = screens[0]!.current!.backend!;
    const survivor = other(victim);
    const moving = screens.filter((s) => s.current?.backend === victim);
    note(`SIGKILL instance ${victim}: ${moving.length} of ${screens.length} screens on it`);
    const exit = await cluster.kill(victim);
    expect(exit.signal).toBe('SIGKILL');
    // Commands for the moving screens while they are away: pending in the database until they are back.
    const issuedAt = Date.now();
    for (const screen of moving) await restartCommand(cluster.instance(survivor).url, screen.device.deviceId);
    await waitUntil(
      'every screen of the killed instance back on the other with its command',
      () =>
        moving.every(
          (s) =>
            s.current?.backend === survivor && s.commands.some((c) => c.name === 'restart' && c.at >= issuedAt && c.backend === survivor),
        ),
      60_000,
    );
    for (const screen of moving) {
      const lost = screen.connections.find((c) => c.backend === victim && c.closedAt !== undefined && c.closedAt >= issuedAt - 5000)!;
      // No close frame from a killed process: the connection just ends.
      expect(lost.closeCode).toBe(1006);
      note(`screen back on ${survivor} ${screen.current!.openedAt - lost.closedAt!} ms after its connection ended (back-off with jitter)`);
    }
    for (const screen of screens) screen.stopPlaying();
    await waitUntil('every play reported', () => screens.every((s) => s.unreported === 0), 60_000);
    const failures = screens.reduce((sum, s) => sum + s.playUploadFailures, 0);
    const stored = await cluster.query<{ device_id: string; plays: number; events: number }>(
      `select device_id::text, count(*)::int as plays, count(distinct event_id)::int as events from play_event where device_id = any($1::uuid[]) group by device_id`,
      [screens.map((s) => s.device.deviceId)],
    );
    note(
      `${screens.reduce((sum, s) => sum + s.playsMade.size, 0)} plays made; proof-of-play uploads that failed and were sent again: ${failures}`,
    );
    for (const screen of screens) {
      const row = stored.find((r) => r.device_id === screen.device.deviceId);
      // Every play stored once: none lost with the instance, none twice after a re-sent batch.
      expect(row).toEqual({ device_id: screen.device.deviceId, plays: screen.playsMade.size, events: screen.playsMade.size });
    }
    await cluster.restart(victim);
  });

  it('SIGTERM: /readyz 503, the proxy moves on, sockets closed 1012 reconnect to the other, a request in flight finishes, exit 0 within 15 s', async () => {
    const target = screens[0]!.current!.backend!;
    const remaining = other(target);
    const moving = screens.filter((s) => s.current?.backend === target);
    expect(moving.length).toBeGreaterThan(0);
    const instance = cluster.instance(target);

    // A request in flight: a one-chunk upload's part, half sent before the signal.
    const size = 256 * 1024;
    const data = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(size - 8)]);
    const init = await call<{ uploadId: string }>(instance.url, 'POST', `/api/v2/file/upload/init?customerId=${customerId}`, {
      name: 'drain.png',
      size,
      totalChunks: 1,
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const put = http.request(`${instance.url}/api/v2/file/upload/${init.body.uploadId}/part/1?customerId=${customerId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream', 'content-length': String(size) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      put.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      put.on('error', reject);
    });
    // Awaited below; a reset before then (an instance that does not drain) must fail the test there, not go unhandled.
    answered.catch(() => undefined);
    put.write(data.subarray(0, size / 2));
    await new Promise<void>((resolve) => put.once('socket', (socket) => (socket.connecting ? socket.once('connect', resolve) : resolve())));

    const forwardedBefore = () => cluster.proxy.forwarded.get(target) ?? 0;
    const exited = cluster.terminate(target);
    await waitUntil('/readyz 503 while draining', async () => {
      const res = await fetch(`${instance.url}/readyz`).catch(() => undefined);
      const body = (await res?.json().catch(() => undefined)) as { details?: { check?: string } } | undefined;

      return res?.status === 503 && body?.details?.check === 'stopping';
    });
    await cluster.proxy.waitForRotation(target, false);
    const before = forwardedBefore();
    for (let i = 0; i < 4; i++) expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
    expect(forwardedBefore()).toBe(before);

    // The rest of the body after the drain began: accepted work is finished.
    put.end(data.subarray(size / 2));
    expect(await answered).toBe(200);

    await waitUntil(
      'the screens of the stopping instance on the other one',
      () => moving.every((s) => s.current?.backend === remaining),
      30_000,
    );
    for (const screen of moving) {
      const closed = screen.connections.find((c) => c.backend === target && c.closeCode !== undefined)!;
      expect(closed.closeCode).toBe(1012);
    }
    const exit = await exited;
    note(`SIGTERM: instance ${target} exited with ${exit.code} after ${exit.afterMs} ms`);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(15_000);
  });
});

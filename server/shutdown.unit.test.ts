import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createShutdown, type ShutdownParts } from './shutdown';

/*
 * The stop's order and bounds on a real listener (server/shutdown.ts); the whole process with a device and the
 * database: shutdown.api.test.ts.
 */

type Step = string;

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A listener whose `/slow` answers only when the test says, and a stop over it that records what it did. */
async function setup(options: { graceMs?: number; delayMs?: number; closeMs?: number; close?: () => Promise<void> } = {}) {
  const steps: Step[] = [];
  const slow: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') slow.push(() => res.end('slow done'));
    else res.end('quick');
  });
  servers.push(server);
  const exits: number[] = [];
  const warnings: string[] = [];
  const parts: ShutdownParts = {
    server,
    notReady: () => steps.push('not ready'),
    closeSockets: async () => void steps.push('sockets'),
    closeListeners: async () => void steps.push('listeners'),
    stopJobs: async (deadline) => void steps.push(`jobs until ${deadline > Date.now() ? 'a later deadline' : 'now'}`),
    close: options.close ?? (async () => void steps.push('database')),
  };
  const shutdown = createShutdown(parts, {
    log: { info: () => undefined, warn: (...args: unknown[]) => void warnings.push(String(args.at(-1))), error: () => undefined },
    graceMs: options.graceMs ?? 5_000,
    delayMs: options.delayMs ?? 0,
    closeMs: options.closeMs,
    exit: (code) => {
      steps.push(`exit ${code}`);
      exits.push(code);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  /** A request on a keep-alive connection of its own: its `Connection` header and body, or the error that ended it. */
  const request = (path: string) =>
    new Promise<{ connection: string | undefined; body: string } | { error: string }>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path, agent: new http.Agent({ keepAlive: true }) }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk));
          res.on('end', () => resolve({ connection: res.headers.connection, body }));
        })
        .on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });

  return { server, shutdown, steps, slow, exits, warnings, request, port };
}

describe('createShutdown', () => {
  it('turns not ready at once, keeps serving through the delay, then drains: the in-flight answer says Connection: close; the database last; exit 0', async () => {
    const s = await setup({ delayMs: 1_500 });
    const inFlight = s.request('/slow');
    await expect.poll(() => s.slow.length).toBe(1);

    const stopped = s.shutdown.stop('SIGTERM');
    expect(s.steps).toEqual(['not ready']);
    expect(s.shutdown.stopping).toBe(true);
    // Within the delay a new request is still answered (a proxy that has not noticed yet loses nothing).
    expect(await s.request('/quick')).toEqual({ connection: 'keep-alive', body: 'quick' });
    await expect.poll(() => s.steps.includes('sockets'), { timeout: 5_000 }).toBe(true);
    expect(s.steps.slice(0, 4)).toEqual(['not ready', 'sockets', 'listeners', 'jobs until a later deadline']);
    expect(await s.request('/quick')).toEqual({ error: 'ECONNREFUSED' });
    expect(s.steps).not.toContain('database');

    s.slow[0]!();
    expect(await inFlight).toEqual({ connection: 'close', body: 'slow done' });
    await stopped;
    expect(s.steps.slice(-2)).toEqual(['database', 'exit 0']);
  });

  it('cuts what is still open when the grace period is over, then closes the database and exits 0', async () => {
    const s = await setup({ graceMs: 300 });
    const inFlight = s.request('/slow');
    await expect.poll(() => s.slow.length).toBe(1);
    await s.shutdown.stop('SIGTERM');
    expect(await inFlight).toEqual({ error: 'ECONNRESET' });
    expect(s.warnings.some((w) => w.includes('grace period over'))).toBe(true);
    expect(s.steps.slice(-2)).toEqual(['database', 'exit 0']);
  });

  it('a second signal is logged and changes nothing: one stop, one exit', async () => {
    const s = await setup();
    const first = s.shutdown.stop('SIGTERM');
    const second = s.shutdown.stop('SIGINT');
    expect(second).toBe(first);
    await first;
    expect(s.warnings.some((w) => w.includes('already stopping'))).toBe(true);
    expect(s.steps.filter((step) => step === 'not ready')).toHaveLength(1);
    expect(s.exits).toEqual([0]);
  });

  it('exits with 1 when the final close hangs past the grace period', async () => {
    const s = await setup({ graceMs: 100, closeMs: 100, close: () => new Promise<void>(() => undefined) });
    void s.shutdown.stop('SIGTERM');
    await expect.poll(() => s.exits).toEqual([1]);
  });
});

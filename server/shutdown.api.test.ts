import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase, type Database } from '@/server/db/client';
import { deviceSessions } from '@/server/modules/devices/devices.table';
import { CLOSE_SERVICE_RESTART } from '@/server/modules/display/device-frames';
import { basic, createTestContext, testEnv, type TestContext } from '@/server/test/harness';

/*
 * A graceful stop on a real process (issue 34): the server as server/main.ts runs it (serve.child.ts: `startServer`
 * without Next.js) with a device connected over its WebSocket and a request still arriving, then SIGTERM. The contract
 * the cluster test relies on: /readyz answers 503 at once; the device's socket is closed with 1012 (Service Restart);
 * the request it had accepted is answered (with `Connection: close`) although its body ends after the listener
 * closed; the device's session lease is ended; the process exits with 0 (within the test's 15 s bound after the
 * signal). PGlite (the child's own data directory) and, with DATABASE_URL, PostgreSQL.
 */

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.child.ts');
/** Long enough that the test sees /readyz answer 503 before the listener closes, on a loaded machine. */
const DELAY_SECONDS = 3;

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

type LogLine = { msg?: string; port?: number; [key: string]: unknown };

/** The server in a process of its own on this test's database (PostgreSQL) or a data directory of its own (PGlite). */
async function startChild(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      ...testEnv,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: t.databaseUrl ?? '',
      SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS),
      SHUTDOWN_GRACE_SECONDS: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let output = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = () => {
    if (child.exitCode !== null) throw new Error(`the server process exited: ${output}`);

    return lines.find((l) => l.msg === 'ready');
  };
  await expect.poll(ready, { timeout: 90_000, interval: 100 }).toBeDefined();

  return { child, exited, lines, output: () => output, base: `http://127.0.0.1:${ready()!.port}`, port: ready()!.port! };
}

async function json(base: string, method: string, pathname: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${base}${pathname}`, { method, headers: init.headers, body: init.body });

  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A player's start over HTTP and its WebSocket: registered, a token, a ticket, connected and greeted. */
async function connectDevice(base: string) {
  const registered = await json(base, 'POST', '/public-api/display/register', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'SCREEN', platform: 'BROWSER' }),
  });
  expect(registered.status).toBe(201);
  const { deviceId, deviceSecret } = registered.body as { deviceId: string; deviceSecret: string };
  const token = await json(base, 'POST', '/oauth/token', {
    headers: { authorization: basic(deviceId, deviceSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(token.status).toBe(200);
  const accessToken = token.body.access_token as string;
  const ticket = await json(base, 'POST', '/api/display/wsTicket', { headers: { authorization: `Bearer ${accessToken}` } });
  expect(ticket.status).toBe(200);
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/display/ws?ticket=${ticket.body.ticket as string}`);
  const frames: string[] = [];
  let closed: { code: number; reason: string } | undefined;
  socket.on('message', (data) => frames.push((JSON.parse(data.toString()) as { type: string }).type));
  socket.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
  await expect.poll(() => frames.includes('hello')).toBe(true);

  return { deviceId, accessToken, closed: () => closed };
}

/**
 * A heartbeat whose body is still arriving: the headers (with `Expect: 100-continue`, as upload clients send them)
 * and half the body. Answers once the server has taken the request (its `100 Continue`), with a way to send the
 * rest and the answer that follows.
 */
async function startSlowHeartbeat(port: number, accessToken: string) {
  const body = JSON.stringify({ version: 'web-1.0', localIpAddress: '10.0.0.7' });
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/display/heartbeat',
    // A keep-alive connection, as a player's: `Connection: close` in the answer is then the server's doing.
    agent: new http.Agent({ keepAlive: true }),
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const answered = new Promise<{ status: number; connection: string | undefined; body: Record<string, unknown> }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  answered.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
  await new Promise<void>((resolve) => request.once('continue', resolve));
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));

  return { finish: () => (request.end(body.slice(half)), answered) };
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

describe('SIGTERM', () => {
  it('turns /readyz 503 at once, closes the device socket with 1012, answers the accepted request, ends the lease and exits 0', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-shutdown-'));
    let child: ChildProcess | undefined;
    try {
      const server = await startChild(dataDir);
      child = server.child;
      const device = await connectDevice(server.base);
      const heartbeat = await startSlowHeartbeat(server.port, device.accessToken);
      // PostgreSQL: the connection holds its lease now (on PGlite the child's database is its own until it exits).
      if (t.databaseUrl)
        expect(await t.db.select().from(deviceSessions).where(eq(deviceSessions.deviceId, device.deviceId))).toHaveLength(1);

      child.kill('SIGTERM');
      const signalledAt = Date.now();
      await expect
        .poll(async () => (await json(server.base, 'GET', '/readyz')).body, { timeout: DELAY_SECONDS * 1000 })
        .toMatchObject({ status: 503, details: { check: 'stopping' } });
      // Then, once the delay is over: the screen is told to reconnect elsewhere, and nothing new gets in.
      await expect.poll(() => device.closed(), { timeout: 10_000 }).toEqual({ code: CLOSE_SERVICE_RESTART, reason: expect.any(String) });
      expect(await refusesConnections(server.port)).toBe(true);

      // What it had accepted is answered, and the answer says the connection ends.
      const answer = await heartbeat.finish();
      expect(answer).toMatchObject({ status: 200, connection: 'close', body: { manifestEtag: expect.any(String) } });
      // The contract's bound (not a measurement): the process has exited 15 s after the signal at the latest.
      const bound = new Promise((resolve) =>
        setTimeout(() => resolve('still running 15 s after SIGTERM'), signalledAt + 15_000 - Date.now()),
      );
      expect(await Promise.race([server.exited, bound])).toEqual({ code: 0, signal: null });
      expect(server.lines.map((l) => l.msg)).toContain('stopped');

      // The screen counts for no instance any more (its session lease was ended, not left to run out).
      const { db, close } = await childDatabase(dataDir);
      try {
        expect(await db.select().from(deviceSessions).where(eq(deviceSessions.deviceId, device.deviceId))).toEqual([]);
      } finally {
        await close();
      }
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

/** The database the child ran on: this test's (PostgreSQL), or its data directory, now that it has let go of it. */
async function childDatabase(dataDir: string): Promise<{ db: Database; close: () => Promise<void> }> {
  if (t.databaseUrl) return { db: t.db, close: async () => undefined };
  const handle = await openDatabase({ kind: 'pglite-dir', dataDir });

  return { db: handle.db, close: handle.close };
}

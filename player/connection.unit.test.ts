import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError, type DeviceApi } from './api';
import { restartReconnectDelay } from './backoff';
import { ServerClock } from './clock';
import { Connection, SESSION_LIMIT_CLOSE, sessionLimitMessage, type Command, type ConnectionEvents } from './connection';

/** A WebSocket stand-in: records what is sent, lets the test deliver frames and close it. */
class FakeSocket {
  static OPEN = 1;
  static last: FakeSocket | undefined;
  readyState = 1;
  sent: unknown[] = [];
  private listeners: Record<string, ((event: unknown) => void)[]> = {};
  constructor(readonly url: URL) {
    FakeSocket.last = this;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  deliver(frame: unknown) {
    this.listeners.message?.forEach((l) => l({ data: JSON.stringify(frame) }));
  }
  drop(code = 1006, reason = '') {
    this.readyState = 3;
    this.listeners.close?.forEach((l) => l({ code, reason }));
  }
}

const command: Command = { id: '00000000-0000-4000-8000-000000000001', name: 'restart', params: {}, issuedAt: 0, expiresAt: 1 };

function setup(ticket: () => Promise<unknown>) {
  const calls: { method: string; path: string; json?: unknown }[] = [];
  const api = {
    base: 'http://screen.test',
    clock: new ServerClock(),
    json: vi.fn(async (method: string, path: string, json?: unknown) => {
      calls.push({ method, path, json });
      if (path === '/api/display/wsTicket') return ticket();
      if (path === '/api/display/heartbeat') return { manifestEtag: 'etag-2', heartbeatSeconds: 30, commands: [command], serverTime: 0 };
      throw new Error(`unexpected ${path}`);
    }),
    call: vi.fn(async (method: string, path: string, init: { json?: unknown }) => {
      calls.push({ method, path, json: init.json });
      return new Response(null, { status: 204 });
    }),
  };
  const events: ConnectionEvents & { etags: string[]; performed: string[]; online: boolean[]; changed: string[]; notices: unknown[] } = {
    notices: [],
    etags: [],
    changed: [],
    performed: [],
    online: [],
    assigned: vi.fn(),
    manifestEtag: (etag) => events.etags.push(etag),
    command: async (c) => {
      events.performed.push(c.name);
      return { ok: true, result: { done: c.name } };
    },
    heartbeat: () => ({ version: 'web-1.0' }),
    revoked: vi.fn(),
    state: (online) => events.online.push(online),
    datasourceChanged: (id) => events.changed.push(id),
    refused: (message) => events.notices.push(message),
  };

  return { connection: new Connection(api as unknown as DeviceApi, events), api, calls, events };
}

describe('the device connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.last = undefined;
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('hears hello, commands (acknowledged on the socket, once), manifestChanged and assigned', async () => {
    const { connection, events } = setup(async () => ({ ticket: 't'.repeat(30) }));
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    const socket = FakeSocket.last!;
    expect(String(socket.url)).toBe(`ws://screen.test/api/display/ws?ticket=${'t'.repeat(30)}`);
    socket.deliver({ type: 'hello', serverTime: Date.now(), heartbeatSeconds: 20, manifestEtag: 'etag-1' });
    expect(events.online).toEqual([true]);
    expect(events.etags).toEqual(['etag-1']);
    socket.deliver({ type: 'command', command });
    socket.deliver({ type: 'command', command });
    await vi.advanceTimersByTimeAsync(0);
    expect(events.performed).toEqual(['restart']);
    // The repeat is answered at once, without carrying the command out again.
    expect(socket.sent).toEqual([
      { type: 'ack', commandId: command.id, ok: true, result: { repeated: true } },
      { type: 'ack', commandId: command.id, ok: true, result: { done: 'restart' } },
    ]);
    socket.deliver({ type: 'manifestChanged', etag: 'etag-3' });
    socket.deliver({ type: 'assigned' });
    expect(events.etags).toEqual(['etag-1', 'etag-3']);
    expect(events.assigned).toHaveBeenCalledOnce();
    // Heartbeats at the interval hello gave.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(socket.sent.at(-1)).toEqual({ type: 'heartbeat', version: 'web-1.0' });
    connection.stop();
  });

  it('hears datasourceChanged with the id of the datasource; a frame without a proper id is ignored', async () => {
    const { connection, events } = setup(async () => ({ ticket: 'w'.repeat(30) }));
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    const socket = FakeSocket.last!;
    socket.deliver({ type: 'datasourceChanged', id: 'ds-1' });
    socket.deliver({ type: 'datasourceChanged', id: 7 });
    socket.deliver({ type: 'datasourceChanged', id: 'x'.repeat(65) });
    socket.deliver({ type: 'datasourceChanged' });
    expect(events.changed).toEqual(['ds-1']);
    connection.stop();
  });

  it('while the socket is down, beats over HTTP (commands acknowledged by POST) and reconnects with back-off', async () => {
    let failing = true;
    const { connection, calls, events } = setup(async () => {
      if (failing) throw new TypeError('offline');
      return { ticket: 'u'.repeat(30) };
    });
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.last).toBeUndefined();
    expect(calls.filter((c) => c.path === '/api/display/heartbeat')).toHaveLength(1);
    expect(events.etags).toEqual(['etag-2']);
    expect(calls.find((c) => c.path.endsWith('/ack'))).toEqual({
      method: 'POST',
      path: `/api/display/commands/${command.id}/ack`,
      json: { ok: true, result: { done: 'restart' } },
    });
    // The next tries come later and later (1 s, 2 s, 4 s … with jitter), never at once.
    const tickets = () => calls.filter((c) => c.path === '/api/display/wsTicket').length;
    await vi.advanceTimersByTimeAsync(400);
    expect(tickets()).toBe(1);
    await vi.advanceTimersByTimeAsync(600);
    expect(tickets()).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tickets()).toBe(3);
    failing = false;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(FakeSocket.last).toBeDefined();
    FakeSocket.last!.deliver({ type: 'hello', serverTime: Date.now(), heartbeatSeconds: 60, manifestEtag: 'etag-2' });
    // Connected: no more HTTP heartbeats.
    const beats = calls.filter((c) => c.path === '/api/display/heartbeat').length;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.filter((c) => c.path === '/api/display/heartbeat').length).toBe(beats);
    connection.stop();
  });

  it.each([
    [1012, 'Service Restart'],
    [1001, 'Going Away'],
  ])('a close with %i (%s) reconnects within 0.25–3 s, with no HTTP heartbeat, no error and the back-off where it was', async (code) => {
    const { connection, calls, events } = setup(async () => ({ ticket: 'r'.repeat(30) }));
    vi.spyOn(Math, 'random').mockReturnValue(1);
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.last!.deliver({ type: 'hello', serverTime: Date.now(), heartbeatSeconds: 60, manifestEtag: 'etag-1' });
    const tickets = () => calls.filter((c) => c.path === '/api/display/wsTicket').length;

    // The server stops: the longest jitter is 3 s (Math.random() = 1), then the socket again.
    FakeSocket.last!.drop(code, 'server restarting: reconnect');
    expect(events.online).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(tickets()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tickets()).toBe(2);
    expect(calls.filter((c) => c.path === '/api/display/heartbeat')).toEqual([]);
    expect(events.revoked).not.toHaveBeenCalled();
    expect(events.notices).toEqual([]);

    // Restarts do not raise the back-off: a lost connection after one still retries after about a second (1 s × jitter).
    FakeSocket.last!.drop(code);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(tickets()).toBe(3);
    FakeSocket.last!.drop(1006);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tickets()).toBe(4);
    connection.stop();
  });

  it('spreads the reconnects after a restart over 0.25–3 s', () => {
    expect(restartReconnectDelay(() => 0)).toBe(250);
    expect(restartReconnectDelay(() => 0.5)).toBe(1_625);
    expect(restartReconnectDelay(() => 1)).toBe(3_000);
  });

  it('gives the device up when the server closes with 4001 or refuses the token', async () => {
    const { connection, events } = setup(async () => ({ ticket: 'v'.repeat(30) }));
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.last!.drop(4001);
    expect(events.revoked).toHaveBeenCalledOnce();
    connection.stop();
    const refused = setup(async () => {
      throw new HttpError(401, {});
    });
    refused.connection.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.events.revoked).toHaveBeenCalledOnce();
    refused.connection.stop();
  });

  it('over the session limit (4003) shows why, beats no more over HTTP, tries again after 15 s or more, and clears the notice once greeted', async () => {
    const { connection, calls, events } = setup(async () => ({ ticket: 's'.repeat(30) }));
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.last!.drop(SESSION_LIMIT_CLOSE, "session limit: the account's limit of 3 connected screens is reached");
    expect(events.notices).toEqual(["This screen cannot connect: the account's limit of 3 connected screens is reached"]);
    expect(events.revoked).not.toHaveBeenCalled();
    const tickets = () => calls.filter((c) => c.path === '/api/display/wsTicket').length;
    // Half the 30 s base at least (equal jitter): not the 1 s of a lost connection.
    await vi.advanceTimersByTimeAsync(14_900);
    expect(tickets()).toBe(1);
    expect(calls.filter((c) => c.path === '/api/display/heartbeat')).toEqual([]);
    await vi.advanceTimersByTimeAsync(15_100);
    expect(tickets()).toBe(2);
    FakeSocket.last!.deliver({ type: 'hello', serverTime: Date.now(), heartbeatSeconds: 60, manifestEtag: 'etag-1' });
    expect(events.notices).toEqual(["This screen cannot connect: the account's limit of 3 connected screens is reached", undefined]);
    connection.stop();
  });
});

describe('sessionLimitMessage', () => {
  it('names the limit of the close reason, in the singular for one screen, and reads without a number', () => {
    expect(sessionLimitMessage("session limit: the account's limit of 12 connected screens is reached")).toBe(
      "This screen cannot connect: the account's limit of 12 connected screens is reached",
    );
    expect(sessionLimitMessage("session limit: the account's limit of 1 connected screens is reached")).toBe(
      "This screen cannot connect: the account's limit of 1 connected screen is reached",
    );
    expect(sessionLimitMessage('')).toBe("This screen cannot connect: the account's limit of connected screens is reached");
  });
});

import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { backoffDelay, restartReconnectDelay } from '@/player/backoff';
import { BACKEND_HEADER } from './test-proxy';

/*
 * A screen for the cluster test, speaking the player protocol (spec 4 §1–§5) over the proxy: register, the device
 * token, a WebSocket ticket, then the socket (hello, commands acknowledged at once, heartbeats). It reconnects as the
 * web player does (player/connection.ts): player/backoff.ts's exponential back-off with jitter, the attempt count reset
 * by a hello. It records what a test asserts on: each connection's instance (the proxy's header) and close code, the
 * commands it received, and its proof of play (events queued, sent as NDJSON, dropped from the queue only once the
 * server answered, as player/pop-batch.ts does), so a play re-sent after a lost answer must count once.
 */

export type ScreenConnection = { backend: string | undefined; openedAt: number; closedAt?: number; closeCode?: number };
export type ReceivedCommand = { id: string; name: string; at: number; backend: string | undefined };
type PlayEvent = { eventId: string; startedAt: number; endedAt: number; completed: boolean };

export type Registered = { deviceId: string; deviceSecret: string; activationCode: string };

export async function registerScreen(base: string): Promise<Registered> {
  const res = await fetch(`${base}/public-api/display/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'SCREEN', platform: 'BROWSER', version: 'cluster-1.0', timeZone: 'UTC' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);

  return (await res.json()) as Registered;
}

export class TestScreen {
  readonly connections: ScreenConnection[] = [];
  readonly commands: ReceivedCommand[] = [];
  /** Every play event made, by id (the queue holds those not yet answered). */
  readonly playsMade = new Set<string>();
  private queue: PlayEvent[] = [];
  private socket: WebSocket | undefined;
  private token: { value: string; renewAt: number } | undefined;
  private attempt = 0;
  private stopped = false;
  private beat: NodeJS.Timeout | undefined;
  private playTimer: NodeJS.Timeout | undefined;
  private sending = false;
  /** Proof-of-play uploads that failed (the instance died, the proxy answered 502): sent again. */
  playUploadFailures = 0;

  constructor(
    private readonly base: string,
    readonly device: Registered,
  ) {}

  /** Opens the socket (and keeps it open: reconnects until `stop`). */
  start(): void {
    void this.open();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.beat);
    clearInterval(this.playTimer);
    this.socket?.close();
  }

  get current(): ScreenConnection | undefined {
    const last = this.connections.at(-1);

    return last && last.closedAt === undefined ? last : undefined;
  }

  /** Plays one event every `everyMs` and reports the queue through the proxy as it grows. */
  startPlaying(everyMs: number): void {
    this.playTimer = setInterval(() => {
      const endedAt = Date.now();
      const event = { eventId: randomUUID(), startedAt: endedAt - everyMs, endedAt, completed: true };
      this.playsMade.add(event.eventId);
      this.queue.push(event);
      void this.report();
    }, everyMs);
  }

  stopPlaying(): void {
    clearInterval(this.playTimer);
  }

  get unreported(): number {
    return this.queue.length;
  }

  /** Sends the queued plays (oldest first); what the server answered leaves the queue, the rest waits for the next try. */
  async report(): Promise<void> {
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    const batch = this.queue.slice(0, 100);
    try {
      const res = await fetch(`${this.base}/api/display/proofOfPlay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await this.accessToken()}`, 'content-type': 'application/x-ndjson' },
        body: batch.map((event) => JSON.stringify(event)).join('\n'),
      });
      await res.body?.cancel();
      if (res.status === 202) this.queue = this.queue.filter((event) => !batch.includes(event));
      else this.playUploadFailures++;
    } catch {
      this.playUploadFailures++;
    } finally {
      this.sending = false;
    }
    // What arrived meanwhile, or a failed batch: again (a failure after the back-off's first step, as the player waits).
    if (this.queue.length > 0 && !this.stopped) setTimeout(() => void this.report(), 200);
  }

  private async accessToken(force = false): Promise<string> {
    if (!force && this.token && Date.now() < this.token.renewAt) return this.token.value;
    const basic = Buffer.from(`${encodeURIComponent(this.device.deviceId)}:${encodeURIComponent(this.device.deviceSecret)}`).toString(
      'base64',
    );
    const res = await fetch(`${this.base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, renewAt: Date.now() + Math.max(60, body.expires_in - 60) * 1000 };

    return this.token.value;
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    try {
      const res = await fetch(`${this.base}/api/display/wsTicket`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await this.accessToken()}` },
      });
      if (res.status === 401) await this.accessToken(true);
      if (res.status !== 200) throw new Error(`ticket: ${res.status} ${await res.text()}`);
      const { ticket } = (await res.json()) as { ticket: string };
      const url = new URL(`/api/display/ws?ticket=${encodeURIComponent(ticket)}`, this.base);
      url.protocol = 'ws:';
      const socket = new WebSocket(url);
      this.socket = socket;
      const connection: ScreenConnection = { backend: undefined, openedAt: Date.now() };
      socket.on('upgrade', (answer) => {
        connection.backend = String(answer.headers[BACKEND_HEADER] ?? '');
        this.connections.push(connection);
      });
      socket.on('message', (data) => this.frame(String(data), connection));
      socket.on('error', () => undefined);
      socket.on('close', (code) => {
        if (this.socket !== socket) return;
        connection.closedAt = Date.now();
        connection.closeCode = code;
        clearInterval(this.beat);
        this.retry(code);
      });
    } catch {
      this.retry();
    }
  }

  /**
   * As the player (player/connection.ts): a server restarting (1012) or going away (1001) is left for another instance
   * after 0.25–3 s at random; anything else is retried with back-off and jitter from 1 s up to 60 s.
   */
  private retry(code?: number): void {
    if (this.stopped) return;
    const restarting = code === 1012 || code === 1001;
    setTimeout(
      () => void this.open(),
      restarting ? restartReconnectDelay() : backoffDelay(this.attempt++, { baseMs: 1_000, maxMs: 60_000 }),
    );
  }

  private frame(text: string, connection: ScreenConnection): void {
    const frame = JSON.parse(text) as { type: string; heartbeatSeconds?: number; command?: { id: string; name: string } };
    if (frame.type === 'hello') {
      this.attempt = 0;
      clearInterval(this.beat);
      this.beat = setInterval(() => this.send({ type: 'heartbeat', version: 'cluster-1.0' }), (frame.heartbeatSeconds ?? 60) * 1000);
    } else if (frame.type === 'command' && frame.command) {
      this.commands.push({ id: frame.command.id, name: frame.command.name, at: Date.now(), backend: connection.backend });
      this.send({ type: 'ack', commandId: frame.command.id, ok: true, result: { cluster: true } });
    }
  }

  private send(frame: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}

/** Resolves once `check` answers true (asked every 50 ms); fails after `timeoutMs` naming `what`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

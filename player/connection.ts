import { backoffDelay, restartReconnectDelay } from './backoff';
import type { DeviceApi } from './api';

/*
 * The device's line to the server (spec 4 §3): the WebSocket (single-use ticket, then hello, commands,
 * manifestChanged, assigned, datasourceChanged), reconnected with exponential back-off and jitter; while it is down, HTTP
 * heartbeats at the device's interval carry the same news (commands, the manifest ETag).
 */

/** The server's close code when the account's `deviceSessionLimit` of connected screens is reached (display module README). */
export const SESSION_LIMIT_CLOSE = 4003;
/**
 * Close codes of a server instance that stops (a restart, a deployment): 1012 Service Restart, which the server sends
 * (server/modules/display/device-frames.ts), and 1001 Going Away, which older servers and proxies send. The screen
 * reconnects within seconds, to whichever instance the proxy picks; nothing went wrong, so the back-off is not raised.
 */
const RESTART_CLOSES = new Set([1001, 1012]);

/**
 * What the screen shows when the server refused it for the account's session limit; the limit is the number in the
 * close reason (`session limit: the account's limit of 3 connected screens is reached`), left out when there is none.
 */
export function sessionLimitMessage(reason: string): string {
  const limit = /\d+/.exec(reason)?.[0];

  return limit === undefined
    ? "This screen cannot connect: the account's limit of connected screens is reached"
    : `This screen cannot connect: the account's limit of ${limit} connected ${limit === '1' ? 'screen' : 'screens'} is reached`;
}

export type Command = { id: string; name: string; params: Record<string, unknown>; issuedAt: number; expiresAt: number };
export type Ack = { ok: boolean; result?: unknown; error?: string };

export type ConnectionEvents = {
  assigned: () => void;
  manifestEtag: (etag: string) => void;
  command: (command: Command) => Promise<Ack>;
  /** The heartbeat body (what plays now). */
  heartbeat: () => Record<string, unknown>;
  /** The device is gone (deleted, customer restricted): close code 4001 or a refused token. */
  revoked: () => void;
  /** A datasource's data changed (spec 5 §2): read it again. */
  datasourceChanged?: (id: string) => void;
  /** Refused for the account's session limit: the message to show; undefined once a connection is greeted again. */
  refused?: (message: string | undefined) => void;
  state?: (online: boolean) => void;
};

export class Connection {
  private socket: WebSocket | undefined;
  private attempt = 0;
  /** The last close was the session limit: no HTTP heartbeats meanwhile, slower retries. */
  private limited = false;
  private heartbeatSeconds = 60;
  private beat: ReturnType<typeof setInterval> | undefined;
  private fallback: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Commands acknowledged here (a command is delivered at most once per connection, maybe again after). */
  private readonly handled = new Set<string>();
  reconnects = 0;

  constructor(
    private readonly api: DeviceApi,
    private readonly events: ConnectionEvents,
  ) {}

  start(): void {
    void this.open();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.beat);
    clearTimeout(this.fallback);
    this.socket?.close();
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    try {
      const { ticket } = await this.api.json<{ ticket: string }>('POST', '/api/display/wsTicket');
      const url = new URL(`/api/display/ws?ticket=${encodeURIComponent(ticket)}`, this.api.base);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const socket = new WebSocket(url);
      this.socket = socket;
      const sentAt = Date.now();
      socket.addEventListener('message', (event) => this.frame(String(event.data), sentAt));
      socket.addEventListener('close', (event) => {
        if (this.socket !== socket) return;
        clearInterval(this.beat);
        this.events.state?.(false);
        if (RESTART_CLOSES.has(event.code)) return this.reconnectAfterRestart();
        if (event.code === 4001) this.events.revoked();
        this.limited = event.code === SESSION_LIMIT_CLOSE;
        if (this.limited) this.events.refused?.(sessionLimitMessage(String(event.reason ?? '')));
        this.retry();
      });
    } catch (err) {
      if (err instanceof Error && 'status' in err && (err as { status: number }).status === 401) this.events.revoked();
      this.retry();
    }
  }

  /**
   * Tries the socket again later and more rarely each time. Refused for the session limit: from 30 s up to 10
   * minutes (a place frees when another screen goes), and no HTTP heartbeats meanwhile: the account has no place
   * for this screen, over either transport.
   */
  private retry(): void {
    if (this.stopped) return;
    const delay = this.limited
      ? backoffDelay(this.attempt++, { baseMs: 30_000, maxMs: 600_000 })
      : backoffDelay(this.attempt++, { baseMs: 1_000, maxMs: 60_000 });
    this.reconnects++;
    setTimeout(() => void this.open(), delay);
    if (this.limited) clearTimeout(this.fallback);
    else this.scheduleHttpHeartbeat(0);
  }

  /**
   * The server instance stops: the socket again after a short random delay, with the back-off where it was (a failure
   * of that attempt backs off as usual) and no HTTP heartbeats meanwhile (the screen is back on a socket within seconds).
   */
  private reconnectAfterRestart(): void {
    if (this.stopped) return;
    this.limited = false;
    this.reconnects++;
    setTimeout(() => void this.open(), restartReconnectDelay());
  }

  private frame(text: string, sentAt: number): void {
    let frame: { type?: string; [key: string]: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'hello': {
        this.attempt = 0;
        if (this.limited) this.events.refused?.(undefined);
        this.limited = false;
        clearTimeout(this.fallback);
        this.heartbeatSeconds = Number(frame.heartbeatSeconds) || 60;
        if (typeof frame.serverTime === 'number') this.api.clock.sample(frame.serverTime, sentAt, Date.now());
        this.events.state?.(true);
        if (typeof frame.manifestEtag === 'string') this.events.manifestEtag(frame.manifestEtag);
        clearInterval(this.beat);
        this.beat = setInterval(() => this.send({ type: 'heartbeat', ...this.events.heartbeat() }), this.heartbeatSeconds * 1000);
        break;
      }
      case 'command':
        void this.perform(frame.command as Command, (ack) => this.send({ type: 'ack', commandId: (frame.command as Command).id, ...ack }));
        break;
      case 'manifestChanged':
        if (typeof frame.etag === 'string') this.events.manifestEtag(frame.etag);
        break;
      case 'assigned':
        this.events.assigned();
        break;
      case 'datasourceChanged':
        if (typeof frame.id === 'string' && frame.id.length > 0 && frame.id.length <= 64) this.events.datasourceChanged?.(frame.id);
        break;
    }
  }

  private send(frame: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private async perform(command: Command, ack: (ack: Ack) => void): Promise<void> {
    if (this.handled.has(command.id)) return ack({ ok: true, result: { repeated: true } });
    this.handled.add(command.id);
    let result: Ack;
    try {
      result = await this.events.command(command);
    } catch (err) {
      result = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    ack(result);
  }

  /** While the socket is down: a heartbeat over HTTP now and every interval (commands acknowledged by POST). */
  private scheduleHttpHeartbeat(delay: number): void {
    clearTimeout(this.fallback);
    this.fallback = setTimeout(() => {
      if (this.stopped || this.connected) return;
      void this.httpHeartbeat().finally(() => this.scheduleHttpHeartbeat(this.heartbeatSeconds * 1000));
    }, delay);
  }

  async httpHeartbeat(): Promise<void> {
    try {
      const beat = await this.api.json<{ manifestEtag: string; heartbeatSeconds: number; commands: Command[] }>(
        'POST',
        '/api/display/heartbeat',
        this.events.heartbeat(),
      );
      this.heartbeatSeconds = beat.heartbeatSeconds || this.heartbeatSeconds;
      this.events.manifestEtag(beat.manifestEtag);
      for (const command of beat.commands) {
        await this.perform(
          command,
          (ack) =>
            void this.api.call('POST', `/api/display/commands/${encodeURIComponent(command.id)}/ack`, { json: ack }).catch(() => undefined),
        );
      }
    } catch {
      // Offline: the next beat tries again.
    }
  }
}

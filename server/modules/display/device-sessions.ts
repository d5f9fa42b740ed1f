import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import type { DeviceCallerRecord } from '@/server/auth/device-token';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import { ForbiddenError, ValidationError } from '@/server/errors';
import { toErrorBody, validationErrorBody } from '@/server/http/errors';
import { parseSafeJson } from '@/server/http/hostile-input';
import { metricsOf } from '@/server/metrics/metrics';
import type { BlobStore } from '@/server/storage';
import type { DevicePushNotice } from './device-push';
import * as sq from './device-sessions.queries';
import * as q from './display.queries';
import {
  BINARY,
  CLOSE_POLICY_VIOLATION,
  CLOSE_REPLACED,
  CLOSE_SERVICE_RESTART,
  DeviceFrame,
  errorFrame,
  send,
  SERVICE_RESTART_REASON,
} from './device-frames';
import { DeliveryMarks } from './delivery-marks';
import { ManifestCheckQueue } from './manifest-check-queue';
import { commandView, manifestEtags } from './display.service';
import { inSlices, pingGapMs } from './ping-round';
import { SessionLeases } from './session-leases';
import { SocketAcks } from './socket-acks';
import { TokenBucket } from './token-bucket';

/** Commands sent to one device in one go (more wait for the next notice or heartbeat). */
const COMMANDS_PER_PUSH = 100;
/**
 * Manifest ETags worked out together when a change reaches many connected devices (a notice names at most 200):
 * the tenant's campaigns and content graph are read once per batch, so one batch for a whole fan-out is cheapest.
 */
const ANNOUNCE_BATCH = 10_000;
/** Connections greeted together (their `hello` ETags resolved in one go). */
const GREET_BATCH = 500;
/**
 * Frames of one connection waiting while one is handled (they are handled one at a time, in order). Above
 * the bucket's default burst, so a burst of acknowledgements behind a heartbeat fits; reached only when
 * handling stalls while the device keeps sending.
 */
const FRAME_QUEUE = 256;

export type SessionDeps = { db: Database; config: Config; storage: BlobStore; log: Logger };

/** One open WebSocket of a device. */
type Session = {
  /** Its `device_session` row. */
  id: string;
  socket: WebSocket;
  caller: DeviceCallerRecord;
  /** Commands sent on this connection: each at most once per connection until acknowledged (spec 4 §3). */
  delivered: Set<string>;
  /** The manifest ETag the device last heard of on this connection. */
  etag: string | undefined;
  /** Answered the last protocol-level ping. */
  alive: boolean;
  /** What the connection may still send (frames a second, a burst). */
  bucket: TokenBucket;
  /** Frames received and not yet handled, in order; `busy` while one is handled. */
  queue: RawData[];
  busy: boolean;
  /** Closed by the server: whatever still arrives is dropped unread. */
  closing: boolean;
  /** A hash of the facts a heartbeat on this connection last stored (a repeat stores nothing). */
  reported?: string;
};

/**
 * The devices connected to this instance and what they are told (spec 4 §3 "WebSocket frames"). News comes
 * as notices (device ids only, from any instance through LISTEN/NOTIFY); the registry reads the rest from
 * the database for the devices it holds, in one statement per notice.
 */
export class DeviceSessions {
  private readonly byDevice = new Map<string, Set<Session>>();
  /** Aborted by `closeAll`: a ping round under way ends at once. */
  private readonly stopping = new AbortController();
  /** This instance's connections in the customers' session limits. */
  private readonly leases: SessionLeases;
  /** Acknowledgements over the socket, written in batches. */
  private readonly acks: SocketAcks;
  /** Commands sent and not yet acknowledged: their deliveries, written when no ack came soon. */
  private readonly deliveries: DeliveryMarks;
  private readonly manifestChecks = new ManifestCheckQueue({
    check: (ids) => this.announceManifests(ids),
    batch: ANNOUNCE_BATCH,
    failed: (err, count) => this.deps.log.error({ err, count }, 'manifest announcement failed'),
  });

  constructor(private readonly deps: SessionDeps) {
    this.leases = new SessionLeases({ db: deps.db, log: deps.log, pingSeconds: deps.config.devicePingSeconds });
    this.acks = new SocketAcks(deps);
    this.deliveries = new DeliveryMarks({ write: (marks) => q.markCommandsDelivered(deps.db, marks), log: deps.log });
  }

  get size(): number {
    return this.byDevice.size;
  }

  connectedIds(): string[] {
    return [...this.byDevice.keys()];
  }

  /**
   * A device connected: it is ONLINE, hears hello, then its pending commands. Connections that arrive together
   * (a reconnect storm after a restart or a network outage) are greeted together: one manifest resolution per
   * tenant and batch rather than per device (`greet`).
   */
  async open(socket: WebSocket, caller: DeviceCallerRecord): Promise<void> {
    const limits = this.deps.config.deviceSockets;
    // Until the admission is decided: an error closes the socket rather than throwing from the emitter.
    socket.on('error', () => socket.terminate());
    const id = await this.leases.admit(socket, caller);
    if (id === undefined) return;
    const session: Session = {
      id,
      socket,
      caller,
      delivered: new Set(),
      etag: undefined,
      alive: true,
      bucket: new TokenBucket(limits.frameRate, limits.frameBurst),
      queue: [],
      busy: false,
      closing: false,
    };
    let sessions = this.byDevice.get(caller.deviceId);
    if (!sessions) this.byDevice.set(caller.deviceId, (sessions = new Set()));
    // The newest connection wins: a device reconnecting after a network change must get in while its old,
    // half-open connection waits for the ping round to be found dead.
    for (const old of sessions) {
      if (sessions.size < limits.socketsPerDevice) break;
      sessions.delete(old);
      this.close(old, CLOSE_REPLACED, 'replaced by a newer connection');
    }
    sessions.add(session);
    socket.on('pong', () => (session.alive = true));
    socket.on('message', (data, isBinary) => this.arrive(session, isBinary ? undefined : data));
    socket.on('close', () => this.forget(session));

    await new Promise<void>((resolve, reject) => {
      this.arrivals.push({ session, resolve, reject });
      if (!this.greeting) this.greeting = this.greetArrivals().finally(() => (this.greeting = undefined));
    });
  }

  private arrivals: Array<{ session: Session; resolve: () => void; reject: (err: unknown) => void }> = [];
  private greeting: Promise<void> | undefined;

  /** Greets the connections that arrived, GREET_BATCH at a time, until none wait (those arriving meanwhile join the next batch). */
  private async greetArrivals(): Promise<void> {
    // Let the connections of this instant arrive before the first batch goes.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.arrivals.length > 0) {
      const batch = this.arrivals.splice(0, GREET_BATCH);
      try {
        await this.greet(batch.map((b) => b.session));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
  }

  private async greet(batch: readonly Session[]): Promise<void> {
    const ids = [...new Set(batch.map((s) => s.caller.deviceId))];
    await sq.markConnectedDevicesSeen(this.deps.db, ids);
    const [etags, heartbeats] = await Promise.all([manifestEtags(this.deps.db, ids), sq.findHeartbeatSeconds(this.deps.db, ids)]);
    for (const session of batch) {
      const etag = etags.get(session.caller.deviceId);
      session.etag = etag;
      send(session, {
        type: 'hello',
        serverTime: Date.now(),
        heartbeatSeconds: heartbeats.get(session.caller.deviceId) ?? 60,
        manifestEtag: etag,
      });
    }
    await this.deliverCommands(ids);
  }

  /** A notice from any instance; the devices not connected here are someone else's (or nobody's). */
  async notice(notice: DevicePushNotice): Promise<void> {
    const here = notice.deviceIds.filter((id) => this.byDevice.has(id));
    if (here.length === 0) return;
    if (notice.kind === 'commands') await this.deliverCommands(here);
    else if (notice.kind === 'manifest') void this.manifestChecks.add(here);
    else if (notice.kind === 'assigned') await this.announceClaim(here);
    // Spec 5 §2: the devices read the datasource again (`GET /api/display/datasource/{id}`, with their ETag).
    else if (notice.kind === 'datasource')
      for (const id of here)
        for (const session of this.byDevice.get(id) ?? []) send(session, { type: 'datasourceChanged', id: notice.datasourceId });
    else this.disconnect(here, 4001, 'revoked');
  }

  /**
   * Sends each connected device's pending commands that this connection has not had yet. Their deliveries are
   * recorded by their acknowledgements, or after a while without one (`DeliveryMarks`).
   */
  async deliverCommands(deviceIds: readonly string[]): Promise<void> {
    const commands = await sq.findPendingCommandsOf(this.deps.db, deviceIds, COMMANDS_PER_PUSH);
    const sent: string[] = [];
    for (const command of commands) {
      for (const session of this.byDevice.get(command.deviceId) ?? []) {
        if (session.delivered.has(command.id)) continue;
        session.delivered.add(command.id);
        if (send(session, { type: 'command', command: commandView(command) })) sent.push(command.id);
      }
    }
    metricsOf(this.deps.db)?.countDeliveredCommands(sent.length);
    this.deliveries.sent(sent);
  }

  /**
   * `manifestChanged` to the devices whose manifest ETag differs from the one they last heard. The ETags are
   * worked out together (`manifestEtags`: per tenant, the facts, campaigns and content graph once; no resolution),
   * ANNOUNCE_BATCH devices at a time.
   */
  async announceManifests(deviceIds: readonly string[]): Promise<void> {
    for (let i = 0; i < deviceIds.length; i += ANNOUNCE_BATCH) {
      const etags = await manifestEtags(this.deps.db, deviceIds.slice(i, i + ANNOUNCE_BATCH));
      for (const [deviceId, etag] of etags) {
        for (const session of this.byDevice.get(deviceId) ?? []) {
          if (session.etag === etag) continue;
          session.etag = etag;
          send(session, { type: 'manifestChanged', etag });
        }
      }
    }
  }

  private async announceClaim(deviceIds: readonly string[]): Promise<void> {
    const allowed = await sq.findDevicesAllowedToConnect(this.deps.db, deviceIds);
    for (const device of allowed) {
      for (const session of this.byDevice.get(device.id) ?? []) {
        session.caller = { ...session.caller, customerId: device.customerId, deviceName: device.name };
        send(session, { type: 'assigned' });
      }
    }
    await this.announceManifests(allowed.map((d) => d.id));
  }

  /**
   * The periodic round (every ping interval): connections that missed the last ping go; deleted devices and
   * restricted customers' devices are closed; the rest are seen now (ONLINE, lastSeen). The pings go a slice of
   * connections at a time over the first half of the interval (ping-round.ts); each is still pinged once an interval.
   */
  async tick(): Promise<void> {
    const open = [...this.byDevice.values()].flatMap((sessions) => [...sessions]);
    const pinged = await inSlices(
      open,
      pingGapMs(open.length, this.deps.config.devicePingSeconds),
      (session) => {
        // Closed meanwhile (the round takes half an interval).
        if (session.closing || session.socket.readyState !== session.socket.OPEN) return;
        if (!session.alive) return void session.socket.terminate();
        session.alive = false;
        session.socket.ping();
      },
      this.stopping.signal,
    );
    if (!pinged) return;
    await this.leases.renew(
      [...this.byDevice.values()].flatMap((open) => [...open].map((s) => ({ id: s.id, deviceId: s.caller.deviceId }))),
    );
    const ids = this.connectedIds();
    if (ids.length === 0) return;
    const allowed = new Set((await sq.findDevicesAllowedToConnect(this.deps.db, ids)).map((d) => d.id));
    this.disconnect(
      ids.filter((id) => !allowed.has(id)),
      4001,
      'revoked',
    );
    await sq.markConnectedDevicesSeen(this.deps.db, [...allowed]);
  }

  /** Closes the connections of `deviceIds` with a WebSocket close code and reason. */
  disconnect(deviceIds: readonly string[], code: number, reason: string): void {
    for (const id of deviceIds) for (const session of this.byDevice.get(id) ?? []) this.close(session, code, reason);
  }

  /** Closes one connection; frames that still arrive or wait are dropped. */
  private close(session: Session, code: number, reason: string): void {
    session.closing = true;
    session.queue.length = 0;
    session.socket.close(code, reason);
  }

  /** The instance stops: every connection is told to reconnect elsewhere (1012), and none is admitted any more. */
  closeAll(): void {
    this.stopping.abort();
    this.leases.stop();
    this.disconnect(this.connectedIds(), CLOSE_SERVICE_RESTART, SERVICE_RESTART_REASON);
  }

  /** After `closeAll`: the instance's connections count no more in the session limits. */
  endAll(): Promise<void> {
    return this.leases.endAll();
  }

  private forget(session: Session): void {
    const sessions = this.byDevice.get(session.caller.deviceId);
    sessions?.delete(session);
    if (sessions?.size === 0) this.byDevice.delete(session.caller.deviceId);
    this.leases.end(session.id);
  }

  /**
   * A frame arrived. What one connection may cost is bounded: frames a second (a token bucket) and frames
   * waiting to be handled; past either the connection is closed with 1008 and what it sent meanwhile is
   * dropped unread (a flood of heartbeats must not queue statements in front of everyone else's requests).
   * The largest frame is the socket's `maxPayload` (1009).
   */
  private arrive(session: Session, data: RawData | undefined): void {
    if (session.closing) return;
    if (!session.bucket.take()) return this.refuse(session, 'too many frames');
    if (session.queue.length >= FRAME_QUEUE) return this.refuse(session, 'too many frames waiting');
    session.queue.push(data ?? BINARY);
    if (!session.busy) void this.drain(session);
  }

  private refuse(session: Session, reason: string): void {
    this.deps.log.warn({ deviceId: session.caller.deviceId, reason }, 'device connection closed: frame policy');
    this.close(session, CLOSE_POLICY_VIOLATION, reason);
  }

  /** Handles the connection's frames one at a time, in order. */
  private async drain(session: Session): Promise<void> {
    session.busy = true;
    try {
      for (let data = session.queue.shift(); data !== undefined && !session.closing; data = session.queue.shift())
        await this.receive(session, data);
    } finally {
      session.busy = false;
    }
  }

  /**
   * A frame from the device: a heartbeat or an acknowledgement, handled as their HTTP twins, under the same
   * input rule as an HTTP body (JSON, depth, no NUL; then the schema). Refusals are error frames with the
   * error body of DECISIONS §3 (`{type: "error", status, key, message, details}`); the connection stays open.
   */
  private async receive(session: Session, data: RawData): Promise<void> {
    try {
      if (data === BINARY) throw new ValidationError('request.error.invalid', 'Frames are JSON text');
      const parsed = DeviceFrame.safeParse(parseSafeJson('frame', data.toString()));
      if (!parsed.success) return void send(session, errorFrame(validationErrorBody(parsed.error, 'frame')));
      const frame = parsed.data;
      if (frame.type === 'heartbeat') {
        // Over the socket a heartbeat only reports facts: the ping round keeps the device seen (set-based), and
        // commands and manifest changes are pushed when they happen, so there is nothing to read back (one
        // statement when they differ from what this connection stored last, none when they repeat: a screen
        // reports the same facts every minute).
        const { type: _type, ...body } = frame;
        const facts = {
          localIpAddress: body.localIpAddress,
          version: body.version,
          firmwareVersion: body.firmwareVersion,
          deviceInfo: body.deviceInfo,
        };
        const reported = createHash('sha1').update(JSON.stringify(facts)).digest('base64');
        if (reported === session.reported) return;
        await sq.storeReportedFacts(this.deps.db, session.caller.deviceId, facts);
        session.reported = reported;
      } else {
        if (session.caller.customerId === null)
          throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
        this.acks.queue(session, {
          deviceId: session.caller.deviceId,
          commandId: frame.commandId,
          ok: frame.ok,
          result: frame.result ?? null,
          error: frame.error ?? null,
          // Only a command this connection was sent: another device's id must not take that device's mark away.
          deliveredAt: session.delivered.has(frame.commandId) ? this.deliveries.acknowledged(frame.commandId) : undefined,
        });
      }
    } catch (err) {
      const { body } = toErrorBody(err);
      if (body.status >= 500) this.deps.log.error({ err, deviceId: session.caller.deviceId }, 'device frame failed');
      send(session, errorFrame(body));
    }
  }

  /** The instance stops: the acknowledgements that arrived are written, then the deliveries none acknowledged. */
  async flushWrites(): Promise<void> {
    await this.acks.flush();
    this.deliveries.stop();
    await this.deliveries.flush({ all: true });
  }
}

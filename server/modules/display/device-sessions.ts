import { z } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { DeviceCallerRecord } from '@/server/auth/device-token';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import { AppError, ForbiddenError } from '@/server/errors';
import type { BlobStore } from '@/server/storage';
import type { DevicePushNotice } from './device-push';
import * as sq from './device-sessions.queries';
import * as q from './display.queries';
import { CommandAckSchema, DisplayHeartbeatSchema } from './display.schemas';
import { commandView, manifestEtags } from './display.service';

/** Acknowledgements written in one statement at most, and how long one waits for others. */
const ACKS_PER_BATCH = 500;
const ACK_BATCH_MS = 20;

/** Commands sent to one device in one go (more wait for the next notice or heartbeat). */
const COMMANDS_PER_PUSH = 100;
/**
 * Manifest ETags worked out together when a change reaches many connected devices (a notice names at most 200):
 * the tenant's campaigns and content graph are read once per batch, so one batch for a whole fan-out is cheapest.
 */
const ANNOUNCE_BATCH = 10_000;
/** Connections greeted together (their `hello` ETags resolved in one go). */
const GREET_BATCH = 500;

const HeartbeatFrame = DisplayHeartbeatSchema.extend({ type: z.literal('heartbeat') });
const AckFrame = CommandAckSchema.extend({ type: z.literal('ack'), commandId: z.string().uuid() });
const DeviceFrame = z.discriminatedUnion('type', [HeartbeatFrame, AckFrame]);

export type SessionDeps = { db: Database; config: Config; storage: BlobStore; log: Logger };

/** One open WebSocket of a device. */
type Session = {
  socket: WebSocket;
  caller: DeviceCallerRecord;
  /** Commands sent on this connection: each at most once per connection until acknowledged (spec 4 §3). */
  delivered: Set<string>;
  /** The manifest ETag the device last heard of on this connection. */
  etag: string | undefined;
  /** Answered the last protocol-level ping. */
  alive: boolean;
};

/**
 * The devices connected to this instance and what they are told (spec 4 §3 "WebSocket frames"). News comes
 * as notices (device ids only, from any instance through LISTEN/NOTIFY); the registry reads the rest from
 * the database for the devices it holds, in one statement per notice.
 */
export class DeviceSessions {
  private readonly byDevice = new Map<string, Set<Session>>();

  constructor(private readonly deps: SessionDeps) {}

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
    const session: Session = { socket, caller, delivered: new Set(), etag: undefined, alive: true };
    let sessions = this.byDevice.get(caller.deviceId);
    if (!sessions) this.byDevice.set(caller.deviceId, (sessions = new Set()));
    sessions.add(session);
    socket.on('pong', () => (session.alive = true));
    socket.on('message', (data, isBinary) => void this.receive(session, isBinary ? undefined : data.toString()));
    socket.on('close', () => this.forget(session));
    socket.on('error', () => socket.terminate());

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
      send(session, { type: 'hello', serverTime: Date.now(), heartbeatSeconds: heartbeats.get(session.caller.deviceId) ?? 60, manifestEtag: etag });
    }
    await this.deliverCommands(ids);
  }

  /** A notice from any instance; the devices not connected here are someone else's (or nobody's). */
  async notice(notice: DevicePushNotice): Promise<void> {
    const here = notice.deviceIds.filter((id) => this.byDevice.has(id));
    if (here.length === 0) return;
    if (notice.kind === 'commands') await this.deliverCommands(here);
    else if (notice.kind === 'manifest') void this.queueManifestCheck(here);
    else if (notice.kind === 'assigned') await this.announceClaim(here);
    else this.disconnect(here, 4001, 'revoked');
  }

  /** Sends each connected device's pending commands that this connection has not had yet. */
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
    await q.markCommandsDelivered(this.deps.db, sent);
  }

  private manifestChecks = new Set<string>();
  private checking: Promise<void> | undefined;

  /**
   * Queues devices for `announceManifests` and answers when they have been checked. One change to ten thousand
   * screens arrives as fifty notices: they join one queue, worked off ANNOUNCE_BATCH devices at a time, so the
   * tenant's campaigns are read once per batch rather than once per notice.
   */
  queueManifestCheck(deviceIds: readonly string[]): Promise<void> {
    for (const id of deviceIds) this.manifestChecks.add(id);
    this.checking ??= this.checkQueuedManifests();

    return this.checking;
  }

  private async checkQueuedManifests(): Promise<void> {
    // Let the other notices of the same change arrive first.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      // Checked and cleared in one synchronous step, so a device queued meanwhile always finds a worker.
      if (this.manifestChecks.size === 0) {
        this.checking = undefined;

        return;
      }
      const batch = [...this.manifestChecks].slice(0, ANNOUNCE_BATCH);
      for (const id of batch) this.manifestChecks.delete(id);
      try {
        await this.announceManifests(batch);
      } catch (err) {
        this.deps.log.error({ err, count: batch.length }, 'manifest announcement failed');
      }
    }
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
   * restricted customers' devices are closed; the rest are seen now (ONLINE, lastSeen).
   */
  async tick(): Promise<void> {
    for (const sessions of this.byDevice.values()) {
      for (const session of sessions) {
        if (!session.alive) {
          session.socket.terminate();
          continue;
        }
        session.alive = false;
        session.socket.ping();
      }
    }
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
    for (const id of deviceIds) for (const session of this.byDevice.get(id) ?? []) session.socket.close(code, reason);
  }

  closeAll(code = 1001, reason = 'server stopping'): void {
    this.disconnect(this.connectedIds(), code, reason);
  }

  private forget(session: Session): void {
    const sessions = this.byDevice.get(session.caller.deviceId);
    sessions?.delete(session);
    if (sessions?.size === 0) this.byDevice.delete(session.caller.deviceId);
  }

  /** A frame from the device: a heartbeat or an acknowledgement, handled as their HTTP twins. */
  private async receive(session: Session, text: string | undefined): Promise<void> {
    let frame: z.infer<typeof DeviceFrame>;
    try {
      const parsed = DeviceFrame.safeParse(text === undefined ? undefined : JSON.parse(text));
      if (!parsed.success) {
        send(session, { type: 'error', key: 'request.error.invalid', message: 'Expected a heartbeat or ack frame' });

        return;
      }
      frame = parsed.data;
    } catch {
      send(session, { type: 'error', key: 'request.error.invalid', message: 'Frames are JSON text' });

      return;
    }
    try {
      if (frame.type === 'heartbeat') {
        // Over the socket a heartbeat only reports facts: the ping round keeps the device seen (set-based), and
        // commands and manifest changes are pushed when they happen, so there is nothing to read back (one
        // statement, none when nothing reported changed).
        const { type: _type, ...body } = frame;
        await sq.storeReportedFacts(this.deps.db, session.caller.deviceId, { localIpAddress: body.localIpAddress, version: body.version, firmwareVersion: body.firmwareVersion, deviceInfo: body.deviceInfo });
      } else {
        if (session.caller.customerId === null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
        this.queueAck(session, { deviceId: session.caller.deviceId, commandId: frame.commandId, ok: frame.ok, result: frame.result ?? null, error: frame.error ?? null });
      }
    } catch (err) {
      if (err instanceof AppError) {
        send(session, { type: 'error', key: err.key, message: err.message });

        return;
      }
      this.deps.log.error({ err, deviceId: session.caller.deviceId }, 'device frame failed');
      send(session, { type: 'error', key: 'server.error.internal', message: 'Internal server error' });
    }
  }

  private acks: Array<{ session: Session; ack: sq.SocketAck }> = [];
  private ackTimer: NodeJS.Timeout | undefined;

  /**
   * Acknowledgements are written together, a few milliseconds after they arrive: a command sent to ten
   * thousand screens comes back as ten thousand acks, and one statement per batch keeps them from queueing
   * in front of everything else (spec 4 keeps an ack idempotent, so order within a batch does not matter).
   */
  private queueAck(session: Session, ack: sq.SocketAck): void {
    this.acks.push({ session, ack });
    if (this.acks.length >= ACKS_PER_BATCH) void this.flushAcks();
    else this.ackTimer ??= setTimeout(() => void this.flushAcks(), ACK_BATCH_MS);
  }

  async flushAcks(): Promise<void> {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    const batch = this.acks.splice(0);
    if (batch.length === 0) return;
    try {
      const recorded = await sq.acknowledgeCommands(this.deps.db, batch.map((b) => b.ack));
      const others = batch.filter((b) => !recorded.has(b.ack.commandId));
      const existing = await sq.existingCommandsOf(this.deps.db, others.map((b) => b.ack));
      for (const { session, ack } of others) {
        if (!existing.has(ack.commandId)) send(session, { type: 'error', key: 'deviceCommand.error.notFound', message: `No deviceCommand with id ${ack.commandId}` });
      }
    } catch (err) {
      this.deps.log.error({ err, count: batch.length }, 'recording acknowledgements failed');
      for (const { session } of batch) send(session, { type: 'error', key: 'server.error.internal', message: 'Internal server error' });
    }
  }
}

/** Sends a frame if the connection is open; answers whether it was sent. */
function send(session: Session, frame: Record<string, unknown>): boolean {
  if (session.socket.readyState !== session.socket.OPEN) return false;
  session.socket.send(JSON.stringify(frame));

  return true;
}

import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { WebSocket } from 'ws';
import type { DeviceCallerRecord } from '@/server/auth/device-token';
import type { Database } from '@/server/db/client';
import { CLOSE_SERVICE_RESTART, CLOSE_SESSION_LIMIT, SERVICE_RESTART_REASON, sessionLimitReason } from './device-frames';
import * as sq from './device-sessions.queries';

/**
 * How long a connection counts towards its customer's session limit without a renewal: three ping rounds, at least
 * a minute (a crashed instance's devices count that long; a stalled ping round must not let the limit lapse).
 */
const sessionLeaseSeconds = (pingSeconds: number) => Math.max(60, 3 * pingSeconds);

/**
 * This instance's side of the customers' session limits (`deviceSessionLimit`, display README "Session limit"): the
 * `device_session` rows of its connections, admitted under the customer's lock, renewed by the ping round, ended
 * when they close (closes of one instant in one statement), all ended when the instance stops.
 */
export class SessionLeases {
  readonly instanceId = uuidv7();
  private readonly leaseSeconds: number;
  private stopping = false;
  private ended: string[] = [];
  private endedFlush: Promise<void> | undefined;

  constructor(private readonly deps: { db: Database; log: Logger; pingSeconds: number }) {
    this.leaseSeconds = sessionLeaseSeconds(deps.pingSeconds);
  }

  /**
   * A new connection of the device: counted in (answers its row's id), or refused with the customer's limit (closed
   * with 4003 and the limit in the reason). A socket gone meanwhile, or arriving while the instance stops, counts
   * for nobody.
   */
  async admit(socket: WebSocket, caller: DeviceCallerRecord): Promise<string | undefined> {
    const id = uuidv7();
    const admission = await sq.admitSession(this.deps.db, {
      id,
      deviceId: caller.deviceId,
      customerId: caller.customerId,
      instanceId: this.instanceId,
      leaseSeconds: this.leaseSeconds,
    });
    if (!admission.admitted) {
      const limit = admission.limit;
      this.deps.log.info({ deviceId: caller.deviceId, customerId: caller.customerId, limit }, 'device connection refused: session limit');
      socket.close(CLOSE_SESSION_LIMIT, sessionLimitReason(limit));

      return undefined;
    }
    if (socket.readyState === socket.OPEN && !this.stopping) return id;
    await sq.endSessions(this.deps.db, [id]);
    if (this.stopping) socket.close(CLOSE_SERVICE_RESTART, SERVICE_RESTART_REASON);

    return undefined;
  }

  /** The open connections count for another lease; rows whose lease ran out long ago go (one statement each). */
  async renew(open: ReadonlyArray<{ id: string; deviceId: string }>): Promise<void> {
    await sq.renewSessions(this.deps.db, { instanceId: this.instanceId, sessions: open, leaseSeconds: this.leaseSeconds });
    await sq.deleteExpiredSessions(this.deps.db);
  }

  /** The connection closed: its place is free at once (stopping: `endAll` ends them all). */
  end(id: string): void {
    if (this.stopping) return;
    this.ended.push(id);
    this.endedFlush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flushEnded());
  }

  /** No more admissions end normally; `endAll` follows. */
  stop(): void {
    this.stopping = true;
  }

  /** Every connection of this instance counts no more (one statement, whatever their close events did). */
  async endAll(): Promise<void> {
    this.stopping = true;
    await this.flushEnded();
    await sq.endInstanceSessions(this.deps.db, this.instanceId);
  }

  private async flushEnded(): Promise<void> {
    this.endedFlush = undefined;
    const ids = this.ended.splice(0);
    try {
      await sq.endSessions(this.deps.db, ids);
    } catch (err) {
      // The lease runs out instead.
      this.deps.log.error({ err, count: ids.length }, 'ending device sessions failed');
    }
  }
}

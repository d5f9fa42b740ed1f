import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Database } from '@/server/db/client';
import { NotFoundError } from '@/server/errors';
import { toErrorBody } from '@/server/http/errors';
import * as sq from './device-sessions.queries';
import { errorFrame, send } from './device-frames';

/** Acknowledgements written in one statement at most, and how long one waits for others. */
const ACKS_PER_BATCH = 500;
const ACK_BATCH_MS = 20;

/**
 * Acknowledgements over the socket are written together, a few milliseconds after they arrive: a command sent to
 * ten thousand screens comes back as ten thousand acks, and one statement per batch keeps them from queueing in
 * front of everything else (spec 4 keeps an ack idempotent, so order within a batch does not matter). One batch is
 * written at a time: what arrives meanwhile waits for it and goes into the next, so a burst becomes a few large
 * statements in a row instead of many small ones contending for the same rows and connections.
 */
export class SocketAcks {
  private acks: Array<{ session: { socket: WebSocket }; ack: sq.SocketAck }> = [];
  private ackTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(private readonly deps: { db: Database; log: Logger }) {}

  /** An ack from the connection `session`, which hears an error frame if it names no command of its device. */
  queue(session: { socket: WebSocket }, ack: sq.SocketAck): void {
    this.acks.push({ session, ack });
    // A batch being written takes this one up when it is done.
    if (this.writing) return;
    if (this.acks.length >= ACKS_PER_BATCH) void this.flush();
    else this.ackTimer ??= setTimeout(() => void this.flush(), ACK_BATCH_MS);
  }

  /** Writes every queued ack (after the batch being written, if one is), and answers when they are all written. */
  flush(): Promise<void> {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    this.writing ??= this.writeQueued().finally(() => {
      this.writing = undefined;
    });

    return this.writing;
  }

  private async writeQueued(): Promise<void> {
    while (this.acks.length > 0) await this.write(this.acks.splice(0, ACKS_PER_BATCH));
  }

  private async write(batch: Array<{ session: { socket: WebSocket }; ack: sq.SocketAck }>): Promise<void> {
    try {
      const recorded = await sq.acknowledgeCommands(
        this.deps.db,
        batch.map((b) => b.ack),
      );
      const others = batch.filter((b) => !recorded.has(b.ack.commandId));
      const existing = await sq.existingCommandsOf(
        this.deps.db,
        others.map((b) => b.ack),
      );
      for (const { session, ack } of others) {
        if (!existing.has(ack.commandId)) send(session, errorFrame(toErrorBody(new NotFoundError('deviceCommand', ack.commandId)).body));
      }
    } catch (err) {
      this.deps.log.error({ err, count: batch.length }, 'recording acknowledgements failed');
      for (const { session } of batch) send(session, errorFrame(toErrorBody(err).body));
    }
  }
}

import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Database } from '@/server/db/client';
import { createGroupCommit, type GroupCommit } from '@/server/db/group-commit';
import { NotFoundError } from '@/server/errors';
import { toErrorBody } from '@/server/http/errors';
import * as sq from './device-sessions.queries';
import { errorFrame, send } from './device-frames';

/** Acknowledgements written in one statement at most. */
const ACKS_PER_BATCH = 500;
/** Ack statements running at once: rows of different commands, so they never wait for each other. */
const ACK_STATEMENTS_IN_FLIGHT = 2;

/** What became of an ack: recorded now, a command of the device acknowledged before, or no command of the device. */
type AckOutcome = 'recorded' | 'repeated' | 'unknown';

/**
 * Acknowledgements over the socket are written together (`createGroupCommit`, as webhook triggers are): a command sent
 * to ten thousand screens comes back as ten thousand acks, and one statement per batch of up to ACKS_PER_BATCH keeps
 * them from queueing in front of everything else (spec 4 keeps an ack idempotent, so order within a batch does not
 * matter). An ack that finds ACK_STATEMENTS_IN_FLIGHT statements running waits for one and goes with the others that
 * arrived meanwhile, so a burst becomes a few large statements, two at a time.
 */
export class SocketAcks {
  private readonly commit: GroupCommit<sq.SocketAck, AckOutcome>;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: { db: Database; log: Logger }) {
    this.commit = createGroupCommit(
      async (acks) => {
        const recorded = await sq.acknowledgeCommands(deps.db, acks);
        const others = acks.filter((a) => !recorded.has(a.commandId));
        const existing = await sq.existingCommandsOf(deps.db, others);

        return acks.map((a) => (recorded.has(a.commandId) ? 'recorded' : existing.has(a.commandId) ? 'repeated' : 'unknown'));
      },
      { maxBatch: ACKS_PER_BATCH, maxInFlight: ACK_STATEMENTS_IN_FLIGHT },
    );
  }

  /** An ack from the connection `session`, which hears an error frame if it names no command of its device. */
  queue(session: { socket: WebSocket }, ack: sq.SocketAck): void {
    const written = this.commit.submit(ack).then(
      (outcome) => {
        if (outcome === 'unknown') send(session, errorFrame(toErrorBody(new NotFoundError('deviceCommand', ack.commandId)).body));
      },
      (err: unknown) => {
        this.deps.log.error({ err, commandId: ack.commandId }, 'recording an acknowledgement failed');
        send(session, errorFrame(toErrorBody(err).body));
      },
    );
    this.pending.add(written);
    void written.finally(() => this.pending.delete(written));
  }

  /** Answers when every ack queued so far is written (the instance stops). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

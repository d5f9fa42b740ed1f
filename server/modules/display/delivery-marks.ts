import type { Logger } from 'pino';

/** How long a command sent over a socket waits for its acknowledgement before its delivery is written on its own. */
export const DELIVERY_MARK_DELAY_MS = 2_000;

export type DeliveryMark = { id: string; at: Date };

/**
 * The deliveries of commands sent over this instance's sockets, written late and mostly not at all: a screen that
 * acknowledges a command within DELIVERY_MARK_DELAY_MS has its delivery written by the acknowledgement itself (with the
 * time it was sent), so a batch to ten thousand connected screens updates each command row once, not twice (a mark and
 * an ack, each a new row version with its index entries, each taking the row locks in the middle of the batch). Only
 * the commands still unacknowledged after the delay are marked delivered here, with the time they were sent. What an
 * instance killed meanwhile never wrote is written when the command is sent again (it stays pending until
 * acknowledged, so its screen gets it again on its next connection).
 */
export class DeliveryMarks {
  /** Command id → when it was first sent (a Map keeps insertion order: the oldest first). */
  private readonly pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      /** Writes the marks (one call at a time); `markCommandsDelivered` in the service. */
      write: (marks: DeliveryMark[]) => Promise<void>;
      log: Pick<Logger, 'error'>;
      delayMs?: number;
      now?: () => number;
    },
  ) {}

  private get delayMs(): number {
    return this.deps.delayMs ?? DELIVERY_MARK_DELAY_MS;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Commands just sent; a command sent again (another connection of its device) keeps its first time. */
  sent(commandIds: readonly string[], at: Date = new Date(this.now())): void {
    for (const id of commandIds) if (!this.pending.has(id)) this.pending.set(id, at);
    this.schedule();
  }

  /**
   * The command's acknowledgement is being written: it records the delivery, so no mark is written for it. Answers
   * when the command was sent (undefined when it was not sent from here, or its mark is already written or on its way).
   */
  acknowledged(commandId: string): Date | undefined {
    const at = this.pending.get(commandId);
    this.pending.delete(commandId);

    return at;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Writes the marks that are due (all of them with `all`: the instance stops), after a write under way. */
  async flush(options: { all?: boolean } = {}): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    const due: DeliveryMark[] = [];
    const cutoff = this.now() - this.delayMs;
    for (const [id, at] of this.pending) {
      if (!options.all && at.getTime() > cutoff) break;
      due.push({ id, at });
    }
    for (const mark of due) this.pending.delete(mark.id);
    if (due.length > 0) {
      this.writing = this.deps
        .write(due)
        .catch((err: unknown) => {
          // The commands stay pending in the database and are marked when they are sent again or acknowledged.
          this.deps.log.error({ err, count: due.length }, 'recording command deliveries failed');
        })
        .finally(() => (this.writing = undefined));
      await this.writing;
    }
    this.schedule();
  }

  /** A timer for the oldest mark's due time, when there is one and no timer yet. */
  private schedule(): void {
    if (this.timer || this.pending.size === 0) return;
    const oldest = this.pending.values().next().value as Date;
    const wait = Math.max(0, oldest.getTime() + this.delayMs - this.now());
    this.timer = setTimeout(() => void this.flush(), wait);
    this.timer.unref();
  }

  /** The instance stops: no timer keeps it alive (`flush({ all: true })` writes what is left). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

import type { Segment } from '@/server/modules/display/display.schemas';

export { loopPosition } from '@/lib/player/timeline';

/*
 * The server's clock as the screen sees it (spec 4 §4): every answer carrying `serverTime` updates the
 * offset, and the position in a loop is read from the segment's start on that clock, so screens of one
 * folder and the console's "what plays now" agree. Pure.
 */

/** The offset to add to the local clock: `serverTime` taken as read half-way through the round trip. */
export function clockOffset(serverTime: number, sentAt: number, receivedAt: number): number {
  return Math.round(serverTime - (sentAt + receivedAt) / 2);
}

export class ServerClock {
  private offsetMs = 0;
  private bestRoundTrip = Number.POSITIVE_INFINITY;
  private sampledAt = 0;

  constructor(private readonly local: () => number = () => Date.now()) {}

  /**
   * Takes a `serverTime` answered to a request sent at `sentAt` and received at `receivedAt` (local clock).
   * A sample with a shorter round trip is more exact; a sample older than ten minutes is replaced anyway
   * (clocks drift).
   */
  sample(serverTime: number, sentAt: number, receivedAt: number): void {
    const roundTrip = Math.max(0, receivedAt - sentAt);
    if (roundTrip <= this.bestRoundTrip || receivedAt - this.sampledAt > 600_000) {
      this.offsetMs = clockOffset(serverTime, sentAt, receivedAt);
      this.bestRoundTrip = roundTrip;
      this.sampledAt = receivedAt;
    }
  }

  get offset(): number {
    return this.offsetMs;
  }

  now(): number {
    return this.local() + this.offsetMs;
  }
}

/** The segment that covers `now` (half-open [from, to)), if any. */
export function segmentAt<S extends Pick<Segment, 'from' | 'to'>>(segments: readonly S[], now: number): S | undefined {
  return segments.find((s) => s.from <= now && now < s.to);
}

/**
 * A token bucket: `burst` tokens at most, refilled at `ratePerSecond`; each event takes one. What a
 * connection may send at once and on average (the device WebSocket's frames). Time is monotonic
 * (`performance.now()`), so a change of the wall clock neither empties nor fills it.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    now = performance.now(),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token if one is there; false when the bucket is empty. */
  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;

    return true;
  }
}

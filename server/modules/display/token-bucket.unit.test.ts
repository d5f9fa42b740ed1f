import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('gives the burst at once, then the rate', () => {
    const bucket = new TokenBucket(10, 3, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    // 100 ms at 10 a second: one more.
    expect(bucket.take(100)).toBe(true);
    expect(bucket.take(100)).toBe(false);
  });

  it('never holds more than the burst, however long it waited', () => {
    const bucket = new TokenBucket(10, 2, 0);
    const taken = Array.from({ length: 5 }, () => bucket.take(3_600_000)).filter(Boolean);
    expect(taken).toHaveLength(2);
  });
});

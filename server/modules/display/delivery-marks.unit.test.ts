import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryMarks, type DeliveryMark } from './delivery-marks';

describe('DeliveryMarks', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  const marks = (delayMs = 2_000) => {
    const written: DeliveryMark[][] = [];
    const log = { error: vi.fn() };
    const m = new DeliveryMarks({ write: async (batch) => void written.push(batch), log, delayMs });

    return { m, written, log };
  };

  it('writes nothing for commands acknowledged within the delay, and answers when each was sent', async () => {
    const { m, written } = marks();
    m.sent(['a', 'b']);
    const sentAt = new Date(Date.now());
    await vi.advanceTimersByTimeAsync(500);
    expect(m.acknowledged('a')).toEqual(sentAt);
    expect(m.acknowledged('b')).toEqual(sentAt);
    expect(m.acknowledged('b')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toEqual([]);
  });

  it('writes the unacknowledged ones once the delay is over, at the time they were sent, oldest first', async () => {
    const { m, written } = marks();
    m.sent(['a', 'b']);
    await vi.advanceTimersByTimeAsync(1_000);
    m.sent(['c', 'a']); // "a" again (another connection of its device): its first time stays.
    m.acknowledged('b');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([[{ id: 'a', at: new Date(1_000_000) }]]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([[{ id: 'a', at: new Date(1_000_000) }], [{ id: 'c', at: new Date(1_001_000) }]]);
    expect(m.size).toBe(0);
  });

  it('writes everything left when the instance stops, however recent', async () => {
    const { m, written } = marks();
    m.sent(['a']);
    await vi.advanceTimersByTimeAsync(10);
    m.stop();
    await m.flush({ all: true });
    expect(written).toEqual([[{ id: 'a', at: new Date(1_000_000) }]]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toHaveLength(1);
  });

  it('logs a failed write and goes on with the next marks', async () => {
    const log = { error: vi.fn() };
    let fail = true;
    const written: DeliveryMark[][] = [];
    const m = new DeliveryMarks({
      write: async (batch) => {
        if (fail) throw new Error('database gone');
        written.push(batch);
      },
      log,
      delayMs: 100,
    });
    m.sent(['a']);
    await vi.advanceTimersByTimeAsync(100);
    expect(log.error).toHaveBeenCalledTimes(1);
    fail = false;
    m.sent(['b']);
    await vi.advanceTimersByTimeAsync(100);
    expect(written).toEqual([[{ id: 'b', at: new Date(1_000_100) }]]);
  });
});

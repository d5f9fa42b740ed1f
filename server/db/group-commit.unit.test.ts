import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';

/** A run that records its batches and answers when `release` is called (so a test decides when a batch "commits"). */
function recordingRun(options: { failWhen?: (item: number) => boolean } = {}) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: number[]) => {
    batches.push(items);

    return new Promise<string[]>((resolve, reject) => {
      pending.push(() => {
        if (items.some((i) => options.failWhen?.(i))) reject(new Error(`refused ${items.join(',')}`));
        else resolve(items.map((i) => `answer ${i}`));
      });
    });
  };
  const releaseAll = () => {
    for (const release of pending.splice(0)) release();
  };

  return { run, batches, releaseAll, pendingCount: () => pending.length };
}

/** Resolves once `condition` holds (checked after each turn of the event loop). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('group commit', () => {
  it('runs the calls of one turn as one batch and answers each with its own result', async () => {
    const r = recordingRun();
    const group = createGroupCommit(r.run, { maxBatch: 100, maxInFlight: 2 });
    const answers = Promise.all([1, 2, 3].map((i) => group.submit(i)));
    await until(() => r.pendingCount() === 1);
    r.releaseAll();
    expect(await answers).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('joins the calls that arrive while maxInFlight batches run into the next batch, at most maxBatch each', async () => {
    const r = recordingRun();
    const group = createGroupCommit(r.run, { maxBatch: 3, maxInFlight: 1 });
    const first = group.submit(1);
    await until(() => r.pendingCount() === 1);
    const later = [2, 3, 4, 5, 6].map((i) => group.submit(i));
    // Nothing more runs while the one batch allowed is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.batches).toEqual([[1]]);
    r.releaseAll();
    expect(await first).toBe('answer 1');
    await until(() => r.pendingCount() === 1);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    r.releaseAll();
    await until(() => r.pendingCount() === 1);
    r.releaseAll();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3', 'answer 4', 'answer 5', 'answer 6']);
    expect(r.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('runs each item of a failed batch alone, so only the bad one fails', async () => {
    const r = recordingRun({ failWhen: (i) => i === 2 });
    const group = createGroupCommit(r.run, { maxBatch: 100, maxInFlight: 2 });
    const answers = [1, 2, 3].map((i) => group.submit(i).catch((err: unknown) => (err as Error).message));
    await until(() => r.pendingCount() === 1);
    r.releaseAll();
    await until(() => r.pendingCount() === 3);
    r.releaseAll();
    expect(await Promise.all(answers)).toEqual(['answer 1', 'refused 2', 'answer 3']);
    expect(r.batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});

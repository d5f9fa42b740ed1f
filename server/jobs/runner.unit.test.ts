import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobRunner, RUNNER_TIMING, type ClaimedJob, type JobStore } from './runner';

/** The runner's wake-ups and back-off (server/jobs/runner.ts) against an in-memory store, on fake timers. */

type StoredJob = { id: string; name: string; dueAt: number; active: boolean; attempts: number; heldElsewhere?: boolean };

class MemoryStore implements JobStore {
  jobs: StoredJob[] = [];
  fetches: Array<{ name: string; at: number }> = [];
  probes: number[] = [];
  scheduled: Array<{ name: string; fireAt: number }> = [];
  failed: string[] = [];
  retryDelayMs = 0;
  retryLimit = 2;

  add(name: string, id: string, delayMs = 0, extra: Partial<StoredJob> = {}) {
    this.jobs.push({ id, name, dueAt: Date.now() + delayMs, active: false, attempts: 0, ...extra });
  }

  async fetch(name: string): Promise<ClaimedJob[]> {
    this.fetches.push({ name, at: Date.now() });
    const job = this.jobs.find((j) => j.name === name && !j.active && !j.heldElsewhere && j.dueAt <= Date.now());
    if (!job) return [];
    job.active = true;

    return [{ id: job.id, data: { id: job.id }, expireInSeconds: 900 }];
  }

  async complete(_name: string, id: string) {
    this.jobs = this.jobs.filter((j) => j.id !== id);
  }

  async fail(_name: string, id: string) {
    const job = this.jobs.find((j) => j.id === id)!;
    job.active = false;
    job.attempts += 1;
    if (job.attempts > this.retryLimit) {
      this.failed.push(id);
      this.jobs = this.jobs.filter((j) => j !== job);
    } else job.dueAt = Date.now() + this.retryDelayMs;
  }

  async pending(): Promise<Map<string, number>> {
    this.probes.push(Date.now());
    const earliest = new Map<string, number>();
    for (const job of this.jobs.filter((j) => !j.active)) earliest.set(job.name, Math.min(earliest.get(job.name) ?? Infinity, job.dueAt));

    return new Map([...earliest].map(([name, at]) => [name, at - Date.now()]));
  }

  async sendScheduled(name: string, fireAt: number) {
    this.scheduled.push({ name, fireAt });
    const id = `${name}@${fireAt}`;
    if (!this.jobs.some((j) => j.id === id)) this.add(name, id);
  }
}

const silent = { error: () => undefined, warn: () => undefined, debug: () => undefined };
let store: MemoryStore;
let runner: JobRunner;
let runs: string[];
let failNext: number;

function startRunner(extra: { nextFire?: (after: number) => number } = {}) {
  const run = async (data: unknown) => {
    const { id } = data as { id?: string };
    if (failNext > 0) {
      failNext -= 1;
      throw new Error('boom');
    }
    runs.push(id ?? 'scheduled');
  };
  runner = new JobRunner(
    store,
    [
      { name: 'a', run },
      { name: 'b', run },
      { name: 'tick', run, ...extra },
    ],
    silent,
  );
  runner.start();
  runner.setLive(true);
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 12, 0, 30) });
  store = new MemoryStore();
  runs = [];
  failNext = 0;
});
afterEach(async () => {
  vi.useRealTimers();
  await runner.stop(0);
});

describe('an idle queue', () => {
  it('is never fetched, and probed ever more rarely: at most once a minute after a few minutes', async () => {
    startRunner();
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(store.fetches).toHaveLength(0);
    const gaps = store.probes.slice(1).map((at, i) => at - store.probes[i]!);
    expect(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]!)).toBe(true);
    expect(gaps.at(-1)).toBe(RUNNER_TIMING.probeMaxMs);
    expect(store.probes.filter((at) => at > Date.now() - 10 * 60_000)).toHaveLength(10);
  });
});

describe('wake-ups', () => {
  it('a local send or a notice runs the job at once, with one fetch past it', async () => {
    startRunner();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    store.add('a', 'job-1');
    runner.wake('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(['job-1']);
    expect(store.fetches.map((f) => f.name)).toEqual(['a', 'a']);
  });

  it('a job due later (a delayed send) runs when it falls due, and is not fetched in between', async () => {
    startRunner();
    store.add('a', 'later', 30_000);
    runner.wake('a');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(runs).toEqual([]);
    expect(store.fetches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual(['later']);
  });

  it('a failed job runs again at its retry time, and fails for good after its retries', async () => {
    store.retryDelayMs = 5_000;
    failNext = 10;
    startRunner();
    store.add('a', 'flaky');
    runner.wake('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(store.jobs[0]?.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(store.jobs[0]?.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.jobs[0]?.attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(store.failed).toEqual(['flaky']);
  });

  it('a job nothing announced (a lost notice) is found by the periodic probe within a minute', async () => {
    startRunner();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    store.add('b', 'unannounced');
    await vi.advanceTimersByTimeAsync(RUNNER_TIMING.probeMaxMs);
    expect(runs).toEqual(['unannounced']);
  });

  it('a job held by another worker is not fetched in a loop: the retries back off', async () => {
    startRunner();
    store.add('a', 'elsewhere', 0, { heldElsewhere: true });
    runner.wake('a');
    await vi.advanceTimersByTimeAsync(60_000);
    // 1 s, 2 s, 4 s, … apart: a handful of fetches in a minute, not thousands.
    expect(store.fetches.length).toBeGreaterThan(2);
    expect(store.fetches.length).toBeLessThanOrEqual(8);
    store.jobs[0]!.heldElsewhere = false;
    await vi.advanceTimersByTimeAsync(RUNNER_TIMING.probeMaxMs);
    expect(runs).toEqual(['elsewhere']);
  });
});

describe('the notification feed', () => {
  it('while it is down, probes come at least every 5 s; when it is back, at once', async () => {
    startRunner();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    runner.setLive(false);
    const before = store.probes.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(store.probes.length - before).toBeGreaterThanOrEqual(60_000 / RUNNER_TIMING.probeMaxDeafMs);
    const down = store.probes.length;
    runner.setLive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.probes.length).toBe(down + 1);
  });
});

describe('schedules', () => {
  const everyMinute = (after: number) => (Math.floor(after / 60_000) + 1) * 60_000;

  it('fire at their minute, each run once, and run at once', async () => {
    vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 1, 30));
    const at = (minute: number) => Date.UTC(2026, 0, 1, 12, minute);
    startRunner({ nextFire: (after) => (Math.floor(after / 180_000) + 1) * 180_000 }); // 12:03, 12:06, …
    await vi.advanceTimersByTimeAsync(at(3) - 1 - Date.now());
    expect(store.scheduled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.scheduled).toEqual([{ name: 'tick', fireAt: at(3) }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([`tick@${at(3)}`]);
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    expect(store.scheduled.map((s) => s.fireAt)).toEqual([at(3), at(6), at(9)]);
    expect(runs).toHaveLength(3);
  });

  it('a run whose minute passed moments before the start is still sent', async () => {
    vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 0, 10));
    startRunner({ nextFire: everyMinute });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.scheduled).toEqual([{ name: 'tick', fireAt: Date.UTC(2026, 0, 1, 12, 0) }]);
  });
});

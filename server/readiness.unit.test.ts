import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReadiness, NotReadyError, type ReadinessOptions } from './readiness';

/** Pings that count their calls and fail while `failing` says so. */
function fakePings() {
  const state = { database: 0, storage: 0, isDatabaseDown: false, isStorageDown: false };
  const pings: Pick<ReadinessOptions, 'pingDatabase' | 'pingStorage'> = {
    pingDatabase: async () => {
      state.database++;
      if (state.isDatabaseDown) throw new Error('connect ECONNREFUSED postgres://user:secret@db/signage');
    },
    pingStorage: async () => {
      state.storage++;
      if (state.isStorageDown) throw new Error('ENOENT');
    },
  };

  return { state, pings };
}

const failedCheck = (readiness: { check: () => Promise<true> }) =>
  readiness.check().then(
    () => 'ready',
    (error: unknown) => (error instanceof NotReadyError ? error.check : `other: ${String(error)}`),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('createReadiness', () => {
  it('is not ready while starting, migrating or stopping, without asking the database', async () => {
    const { state, pings } = fakePings();
    const readiness = createReadiness(pings);
    expect(await failedCheck(readiness)).toBe('starting');
    readiness.setPhase('migrations');
    expect(await failedCheck(readiness)).toBe('migrations');
    readiness.setPhase('serving');
    expect(await failedCheck(readiness)).toBe('ready');
    readiness.setPhase('stopping');
    expect(await failedCheck(readiness)).toBe('stopping');
    expect(state.database).toBe(1);
  });

  it('names the database, then the storage, when they fail; the error says which and never the cause', async () => {
    const { state, pings } = fakePings();
    let now = 0;
    const readiness = createReadiness({ ...pings, now: () => now });
    readiness.setPhase('serving');
    state.isDatabaseDown = true;
    state.isStorageDown = true;
    const error = await readiness.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotReadyError);
    expect(error).toMatchObject({ status: 503, key: 'server.error.unavailable', details: { check: 'database' } });
    expect((error as Error).message).not.toMatch(/secret|postgres:|ECONN/);
    now += 1000;
    state.isDatabaseDown = false;
    expect(await failedCheck(readiness)).toBe('storage');
    now += 1000;
    state.isStorageDown = false;
    expect(await failedCheck(readiness)).toBe('ready');
  });

  it('asks the database and the storage once per period, however many requests ask', async () => {
    const { state, pings } = fakePings();
    let now = 0;
    const readiness = createReadiness({ ...pings, now: () => now, cacheMs: 1000 });
    readiness.setPhase('serving');
    const answers = await Promise.all(Array.from({ length: 50 }, () => failedCheck(readiness)));
    expect(new Set(answers)).toEqual(new Set(['ready']));
    now = 999;
    await readiness.check();
    expect([state.database, state.storage]).toEqual([1, 1]);
    now = 1000;
    await readiness.check();
    expect([state.database, state.storage]).toEqual([2, 2]);
  });

  it('counts a database that does not answer within the timeout as down, and does not ask it again while it hangs', async () => {
    vi.useFakeTimers();
    let calls = 0;
    let answer: (() => void) | undefined;
    let now = 0;
    const readiness = createReadiness({
      pingDatabase: () => {
        calls++;
        return new Promise<void>((resolve) => {
          answer = resolve;
        });
      },
      pingStorage: async () => undefined,
      timeoutMs: 2000,
      now: () => now,
    });
    readiness.setPhase('serving');
    const first = failedCheck(readiness);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await first).toBe('database');
    now += 5000;
    const second = failedCheck(readiness);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await second).toBe('database');
    expect(calls).toBe(1);
    answer!();
    now += 5000;
    expect(await failedCheck(readiness)).toBe('ready');
  });

  it('reports a change once, not once per request', async () => {
    const { state, pings } = fakePings();
    let now = 0;
    const changes: Array<string | undefined> = [];
    const readiness = createReadiness({ ...pings, now: () => now, onChange: (failed) => changes.push(failed) });
    readiness.setPhase('serving');
    state.isStorageDown = true;
    for (let i = 0; i < 3; i++, now += 1000) await failedCheck(readiness);
    state.isStorageDown = false;
    for (let i = 0; i < 3; i++, now += 1000) await failedCheck(readiness);
    expect(changes).toEqual(['storage', undefined]);
  });
});

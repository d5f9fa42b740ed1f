import { ServiceUnavailableError } from './errors';

/** What `/readyz` names when it answers 503 (`details.check`). */
export type ReadinessCheck = 'starting' | 'migrations' | 'database' | 'storage' | 'stopping';

/** Where the service is in its life: only `serving` can be ready. */
type ServicePhase = 'starting' | 'migrations' | 'serving' | 'stopping';

/** 503 `server.error.unavailable` naming the failed check; the message never carries the cause (it may name hosts). */
export class NotReadyError extends ServiceUnavailableError {
  readonly check: ReadinessCheck;

  constructor(check: ReadinessCheck, message: string) {
    super(message, 1, { check });
    this.check = check;
  }
}

const PHASE_MESSAGES: Record<Exclude<ServicePhase, 'serving'>, string> = {
  starting: 'Not ready: the service is starting',
  migrations: 'Not ready: the database migrations are running',
  stopping: 'Not ready: the service is stopping',
};

export type ReadinessOptions = {
  pingDatabase: () => Promise<void>;
  pingStorage: () => Promise<void>;
  /** How long a probe may take before it counts as not answering. */
  timeoutMs?: number;
  /** How long an answer of the probes is reused: a proxy's probes, however many, cost one pair per period. */
  cacheMs?: number;
  /** Told when the probes start failing (once per failing check, not once per request) and when they pass again. */
  onChange?: (failed: ReadinessCheck | undefined, cause?: unknown) => void;
  now?: () => number;
};

export type Readiness = {
  /** Resolves true when ready, else throws NotReadyError. */
  check: () => Promise<true>;
  setPhase: (phase: ServicePhase) => void;
  readonly phase: ServicePhase;
};

/**
 * `/readyz`'s answer: the phase first (no query while starting, migrating or stopping), then a `select 1` and the
 * blob store's ping, each bounded by `timeoutMs`. A probe still running is not started again: a database that
 * hangs gets one outstanding `select 1`, not one per request.
 */
export function createReadiness(options: ReadinessOptions): Readiness {
  const { timeoutMs = 2000, cacheMs = 1000, now = Date.now } = options;
  let phase: ServicePhase = 'starting';
  let cached: { at: number; result: Promise<ReadinessCheck | undefined> } | undefined;
  let lastFailed: ReadinessCheck | undefined;
  const database = singleFlight(options.pingDatabase);
  const storage = singleFlight(options.pingStorage);

  async function probe(): Promise<ReadinessCheck | undefined> {
    for (const [check, ping] of [
      ['database', database],
      ['storage', storage],
    ] as const) {
      try {
        await withTimeout(ping(), timeoutMs);
      } catch (cause) {
        if (lastFailed !== check) options.onChange?.(check, cause);
        lastFailed = check;

        return check;
      }
    }
    if (lastFailed !== undefined) options.onChange?.(undefined);
    lastFailed = undefined;

    return undefined;
  }

  return {
    async check() {
      if (phase !== 'serving') throw new NotReadyError(phase, PHASE_MESSAGES[phase]);
      if (!cached || now() - cached.at >= cacheMs) cached = { at: now(), result: probe() };
      const failed = await cached.result;
      if (failed === 'database') throw new NotReadyError('database', 'Not ready: the database does not answer');
      if (failed === 'storage') throw new NotReadyError('storage', 'Not ready: the blob storage does not answer');

      return true;
    },
    setPhase(next) {
      phase = next;
      cached = undefined;
    },
    get phase() {
      return phase;
    },
  };
}

/** The running call's promise while one runs, a new call otherwise. */
function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;

  return () => {
    running ??= run().finally(() => {
      running = undefined;
    });

    return running;
  };
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });

  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

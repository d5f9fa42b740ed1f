import type { Logger } from 'pino';

/*
 * When the job queue looks for work (issue 27 §4.9). pg-boss's own workers poll every queue every two seconds; on
 * PGlite each poll is a statement on the one embedded connection, ~5 ms of the server's only thread, forever, with
 * nothing to do. Here a queue is fetched only when there is reason to think it holds a due job:
 *   - a local send or another instance's (NOTIFY) wakes the queue at once;
 *   - after every drain, one probe (the earliest waiting job of every queue, by the database's clock) arms a timer
 *     for each queue's next due job: retries and delayed sends run when they fall due, not a poll later;
 *   - cron schedules fire from local timers at their minute;
 *   - a periodic probe is the safety net for what no notice announced (a lost notification feed, jobs expired by
 *     maintenance): its interval doubles while it finds nothing unexpected, up to a minute (5 s while the feed is down).
 * An idle queue therefore costs one cheap statement a minute. The store (server/jobs/queue.ts: pg-boss) does the
 * claiming: a job is fetched by exactly one worker of one instance (SKIP LOCKED), whatever wakes whom.
 */

export type ClaimedJob = { id: string; data: unknown; expireInSeconds?: number };

/** What the runner needs from the queue's storage. */
export type JobStore = {
  /** Claims the next due job of `name` (none: nothing is due, or another worker holds it). */
  fetch(name: string): Promise<ClaimedJob[]>;
  complete(name: string, id: string): Promise<void>;
  fail(name: string, id: string, error: unknown): Promise<void>;
  /** Per queue with waiting jobs: milliseconds until its earliest is due, by the database's clock (≤ 0: due now). */
  pending(): Promise<Map<string, number>>;
  /** Sends the run of cron schedule `name` for `fireAt` (epoch ms); every instance sends it, the store keeps one. */
  sendScheduled(name: string, fireAt: number): Promise<void>;
};

export type RunnerJob = {
  name: string;
  run: (data: unknown) => Promise<void>;
  /** The next time (epoch ms) strictly after `after` that the job's cron schedule fires. */
  nextFire?: (after: number) => number;
};

export const RUNNER_TIMING = {
  /** The first periodic probe interval, and the floor it returns to when a probe finds unannounced work. */
  probeMinMs: 1_000,
  /** The periodic probe's ceiling while the notification feed is up. */
  probeMaxMs: 60_000,
  /** … and while it is down (other instances' sends are then found by probing only). */
  probeMaxDeafMs: 5_000,
  /** A due job another worker holds is looked for again after this, doubling up to `probeMaxMs`. */
  heldBackoffMs: 1_000,
  /** A schedule's run is still sent this long after its time (a start or a stall just after the minute). */
  cronGraceMs: 60_000,
  /** The longest a timer waits, so wall-clock changes are noticed (a timer counts monotonic time). */
  maxTimerMs: 60_000,
};

export class JobRunner {
  private readonly jobs = new Map<string, RunnerJob>();
  /** Queues to fetch, and from when (epoch ms). */
  private readonly wakeAt = new Map<string, number>();
  private readonly draining = new Set<string>();
  /** Woken while draining: fetch again when the drain ends. */
  private readonly again = new Set<string>();
  /** When each queue's last fetch came back empty. */
  private readonly emptyAt = new Map<string, number>();
  /** Consecutive probes that found a queue due although a fetch after that moment found nothing (held elsewhere). */
  private readonly stalled = new Map<string, number>();
  private readonly cronAt = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  /** The jobs claimed and still running (to fail on a stop that could not wait for them). */
  readonly active = new Map<string, { name: string; id: string }>();
  private probeInterval = RUNNER_TIMING.probeMinMs;
  private nextProbeAt = 0;
  private probing: Promise<void> | undefined;
  private probeAgain = false;
  private live = false;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly store: JobStore,
    jobs: readonly RunnerJob[],
    private readonly log: Pick<Logger, 'error' | 'warn' | 'debug'>,
  ) {
    for (const job of jobs) this.jobs.set(job.name, job);
  }

  /** Probes at once (jobs left from before), then runs as above. */
  start(): void {
    const now = Date.now();
    for (const job of this.jobs.values()) {
      // A schedule whose time passed moments ago (a restart on the minute) still runs: pg-boss looked back 60 s too.
      if (job.nextFire) this.cronAt.set(job.name, job.nextFire(now - RUNNER_TIMING.cronGraceMs));
    }
    this.probe();
  }

  /** A job of `name` was sent (here or, by NOTIFY, by another instance): fetch it now, or after `delayMs`. */
  wake(name: string, delayMs = 0): void {
    if (this.stopping || !this.jobs.has(name)) return;
    const at = Date.now() + Math.max(0, delayMs);
    const known = this.wakeAt.get(name);
    if (known === undefined || at < known) this.wakeAt.set(name, at);
    this.arm();
  }

  /**
   * The notification feed is up or down. While it is down other instances' sends are found by probing only, so the
   * probe interval is capped lower; when it comes back whatever it missed is probed for at once.
   */
  setLive(live: boolean): void {
    const regained = live && !this.live;
    this.live = live;
    if (regained) this.probe();
    else if (!live) {
      this.probeInterval = Math.min(this.probeInterval, RUNNER_TIMING.probeMaxDeafMs);
      this.nextProbeAt = Math.min(this.nextProbeAt, Date.now() + this.probeInterval);
      this.arm();
    }
  }

  /** Nothing is fetched, probed, sent or run, and no wake-up is due (diagnostics and tests). */
  get idle(): boolean {
    return this.running.size === 0 && this.wakeAt.size === 0;
  }

  /** Stops fetching; waits up to `timeoutMs` for the jobs running (the caller fails what is left). */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (timeout = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timeout);
  }

  private arm(): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    const next = Math.min(this.nextProbeAt, ...this.wakeAt.values(), ...this.cronAt.values());
    const delay = Math.min(Math.max(0, next - Date.now()), RUNNER_TIMING.maxTimerMs);
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    if (this.stopping) return;
    const now = Date.now();
    for (const [name, at] of this.cronAt) {
      if (at > now) continue;
      const job = this.jobs.get(name)!;
      this.cronAt.set(name, job.nextFire!(now));
      if (now - at <= RUNNER_TIMING.cronGraceMs) this.track(this.fire(name, at));
    }
    for (const [name, at] of this.wakeAt) {
      if (at > now) continue;
      this.wakeAt.delete(name);
      this.drain(name);
    }
    if (now >= this.nextProbeAt && !this.probing) {
      this.probeInterval = Math.min(this.probeInterval * 2, this.live ? RUNNER_TIMING.probeMaxMs : RUNNER_TIMING.probeMaxDeafMs);
      this.probe(true);
    }
    this.arm();
  }

  private async fire(name: string, at: number): Promise<void> {
    try {
      await this.store.sendScheduled(name, at);
      this.wake(name);
    } catch (err) {
      this.log.error({ err, job: name }, 'scheduled job could not be sent');
    }
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Fetches and runs `name`'s due jobs until none is left, then probes for what falls due next. */
  private drain(name: string): void {
    if (this.draining.has(name)) {
      this.again.add(name);

      return;
    }
    this.draining.add(name);
    this.track(
      (async () => {
        try {
          do {
            this.again.delete(name);
            while (!this.stopping) {
              let jobs: ClaimedJob[];
              try {
                jobs = await this.store.fetch(name);
              } catch (err) {
                this.log.error({ err, job: name }, 'job fetch failed');
                break;
              }
              if (jobs.length === 0) {
                this.emptyAt.set(name, Date.now());
                break;
              }
              this.stalled.delete(name);
              for (const job of jobs) await this.runOne(name, job);
            }
          } while (this.again.has(name) && !this.stopping);
        } finally {
          this.draining.delete(name);
        }
        this.probe();
      })(),
    );
  }

  private async runOne(name: string, job: ClaimedJob): Promise<void> {
    const key = `${name}\u0000${job.id}`;
    this.active.set(key, { name, id: job.id });
    const started = performance.now();
    let timeout: NodeJS.Timeout | undefined;
    try {
      const limit = Math.max(1, job.expireInSeconds ?? 15 * 60) * 1000;
      // As pg-boss's workers: a handler past the job's expiry fails the job (it is retried), though it may still run.
      await Promise.race([
        this.jobs.get(name)!.run(job.data),
        new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error(`handler execution exceeded ${limit}ms`)), limit))),
      ]);
      await this.store.complete(name, job.id);
      this.log.debug({ job: name, id: job.id, ms: Math.round(performance.now() - started) }, 'job done');
    } catch (err) {
      this.log.error({ err, job: name, id: job.id }, 'job failed');
      await this.store
        .fail(name, job.id, err)
        .catch((failErr: unknown) => this.log.error({ err: failErr, job: name, id: job.id }, 'job failure could not be recorded'));
    } finally {
      clearTimeout(timeout);
      this.active.delete(key);
    }
  }

  /**
   * One probe at a time (a request meanwhile runs one more after it). Arms each queue's timer for its earliest job;
   * `periodic`: the safety net's probe, whose interval returns to the floor when it finds due work nothing announced.
   */
  private probe(periodic = false): void {
    if (this.stopping) return;
    if (this.probing) {
      this.probeAgain = true;

      return;
    }
    this.probing = (async () => {
      try {
        const pending = await this.store.pending();
        const now = Date.now();
        let unannounced = false;
        for (const [name, delay] of pending) {
          if (!this.jobs.has(name)) continue;
          if (delay > 0) {
            this.wake(name, delay);
            continue;
          }
          if (this.draining.has(name) || this.wakeAt.has(name)) continue;
          // A fetch after the job fell due found nothing: another worker holds it. Back off instead of spinning.
          const emptyAt = this.emptyAt.get(name);
          if (emptyAt !== undefined && emptyAt >= now + delay) {
            const stalled = (this.stalled.get(name) ?? 0) + 1;
            this.stalled.set(name, stalled);
            this.wake(name, Math.min(RUNNER_TIMING.heldBackoffMs * 2 ** (stalled - 1), RUNNER_TIMING.probeMaxMs));
            continue;
          }
          unannounced = true;
          this.wake(name);
        }
        if (periodic && unannounced) this.probeInterval = RUNNER_TIMING.probeMinMs;
      } catch (err) {
        this.log.warn({ err }, 'job probe failed');
      } finally {
        this.nextProbeAt = Date.now() + this.probeInterval;
        this.probing = undefined;
        if (this.probeAgain) {
          this.probeAgain = false;
          this.probe();
        }
        this.arm();
      }
    })();
    this.track(this.probing);
  }
}

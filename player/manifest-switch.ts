/*
 * How the player moves to a new manifest (issue 15, offline): the new manifest's files are downloaded into
 * the service worker's cache first while the current one plays on (its files kept), then the player switches,
 * then the files no longer referenced are removed. So a screen that loses the network right after a change
 * still has every file of what it plays. The download is waited for at most `maxWaitMs`, and never past the
 * current manifest's `validUntil`; a newer manifest offered meanwhile replaces the one waiting. Dependencies
 * injected (clock, timers, worker), so the order is unit-tested.
 */

export type Switchable = { etag: string; validUntil: number };

export type SwitchDeps<M extends Switchable> = {
  /** The manifest playing now, if any. */
  current: () => M | undefined;
  now: () => number;
  /** Whether files can be downloaded ahead (a service worker controls the page). */
  canPrefetch: () => boolean;
  /** Downloads `next`'s files into the cache, keeping the current ones. */
  prefetch: (next: M) => Promise<void>;
  /** Switches to `next` (plays it, stores it). */
  apply: (next: M) => void | Promise<void>;
  /** Keeps the files of `playing` (the manifest switched to) and of `waiting` (a newer one downloading) only. */
  prune: (playing: M, waiting: M | undefined) => Promise<void>;
  wait?: (ms: number) => Promise<void>;
};

/** How long a download may hold back a new manifest before the player switches anyway (files not cached by then stream). */
export const PREFETCH_WAIT_MS = 5 * 60_000;

export class ManifestSwitch<M extends Switchable> {
  private waiting: M | undefined;

  constructor(
    private readonly deps: SwitchDeps<M>,
    private readonly maxWaitMs = PREFETCH_WAIT_MS,
  ) {}

  /** The newest manifest known: the one whose files are downloading, else the one playing. */
  newestEtag(): string | undefined {
    return (this.waiting ?? this.deps.current())?.etag;
  }

  /**
   * Takes a manifest read from the server. Answers whether it was switched to (false: a newer one replaced it
   * while its files downloaded).
   */
  async offer(next: M): Promise<boolean> {
    const current = this.deps.current();
    const now = this.deps.now();
    this.waiting = next;
    // Nothing plays (first start, or the last manifest ran out), or the same manifest again: switch at once.
    const ahead = current !== undefined && current.validUntil > now && current.etag !== next.etag && this.deps.canPrefetch();
    if (ahead) {
      const wait = this.deps.wait ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
      const limit = Math.max(0, Math.min(this.maxWaitMs, current.validUntil - now));
      await Promise.race([this.deps.prefetch(next).catch(() => undefined), wait(limit)]);
      if (this.waiting !== next) return false;
    }
    this.waiting = undefined;
    await this.deps.apply(next);
    await this.deps.prune(next, this.waiting).catch(() => undefined);

    return true;
  }
}

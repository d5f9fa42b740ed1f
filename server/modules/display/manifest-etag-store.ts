import type { Database, Executor } from '@/server/db/client';
import { afterCommit, databaseOf } from '@/server/db/transaction';

/** Devices whose current ETag an instance keeps (the oldest stored go first past it). */
const MAX_DEVICES = 200_000;

/**
 * Each device's current manifest ETag, in memory (issue 27: a 304 resolved the whole manifest only to
 * compare hashes). `If-None-Match` naming it is answered 304 from here, so a screen asking whether its
 * manifest changed costs its token look-up and nothing else.
 *
 * What it holds is what the last full computation of that device's ETag answered (the manifest, the
 * heartbeat, the WebSocket's hello and its change checks), for the manifest period it was computed in
 * (`validUntil`: the ETag covers the day's URL period, so a new day never matches). It is dropped by every
 * change that tells the device `manifestChanged`: `notifyDevices` drops it in the writing process at once
 * and again at commit, and every instance drops it when the `device_push` notice arrives. A computation
 * that began before a drop does not store what it read (a generation, as the token cache's). It serves only
 * while the notice feed is live (a notice missed while it was down could leave a stale ETag), and starts
 * empty when the feed comes back. Another instance's change reaches it when its notice does (milliseconds
 * after the commit): until then it answers as a request just before the change would have been answered.
 */
export class ManifestEtagStore {
  private readonly etags = new Map<string, { etag: string; validUntil: number }>();
  /** The generation of each device's last drop, and of the last clearing of everything. */
  private readonly droppedAt = new Map<string, number>();
  private clearedAt = 0;
  private generation = 0;
  private feedLive = false;

  constructor(readonly maxDevices = MAX_DEVICES) {}

  get serving(): boolean {
    return this.feedLive;
  }

  get size(): number {
    return this.etags.size;
  }

  /** The notice feed connected (serve) or dropped (forget everything: notices may be missed meanwhile). */
  setFeedLive(live: boolean): void {
    if (!live || !this.feedLive) this.clear();
    this.feedLive = live;
  }

  /** The generation a computation starts under, before its first read; hand it to `store`. */
  begin(): number {
    return this.generation;
  }

  /** The device's ETag for the manifest period ending at `validUntil`, if one is known. */
  get(deviceId: string, validUntil: number): string | undefined {
    if (!this.serving) return undefined;
    const known = this.etags.get(deviceId);

    return known?.validUntil === validUntil ? known.etag : undefined;
  }

  store(deviceId: string, etag: string, validUntil: number, generation: number): void {
    if (!this.serving || generation < this.clearedAt || generation < (this.droppedAt.get(deviceId) ?? 0)) return;
    this.etags.delete(deviceId);
    this.etags.set(deviceId, { etag, validUntil });
    if (this.etags.size > this.maxDevices) this.etags.delete(this.etags.keys().next().value!);
  }

  drop(deviceIds: Iterable<string>): void {
    this.generation++;
    for (const id of deviceIds) {
      this.etags.delete(id);
      this.droppedAt.set(id, this.generation);
    }
    // Only computations older than the last clearing could still look a drop up: forget them together.
    if (this.droppedAt.size > this.maxDevices) this.clear();
  }

  clear(): void {
    this.generation++;
    this.etags.clear();
    this.droppedAt.clear();
    this.clearedAt = this.generation;
  }
}

const stores = new WeakMap<Database, ManifestEtagStore>();

/**
 * Gives `db` its ETag store (the device WebSocket endpoint, which holds the `device_push` feed, does);
 * answers the uninstall, which leaves a store installed after this one alone.
 */
export function installManifestEtagStore(db: Database, store: ManifestEtagStore): () => void {
  stores.set(db, store);

  return () => {
    if (stores.get(db) === store) stores.delete(db);
  };
}

/**
 * The store of `db`, for reading and storing ETags. None inside a transaction: what it reads may still roll
 * back, so it must not be stored.
 */
export function manifestEtagStoreOf(db: Executor): ManifestEtagStore | undefined {
  return stores.get(db as Database);
}

/**
 * Drops the devices' stored ETags in this process: now, and again once the write's transaction commits (a
 * computation between the two read the old rows). Other processes drop them when the notice arrives.
 */
export function dropManifestEtags(db: Executor, deviceIds: readonly string[]): void {
  const database = databaseOf(db);
  const store = database && stores.get(database);
  if (!store || deviceIds.length === 0) return;
  store.drop(deviceIds);
  afterCommit(db, () => store.drop(deviceIds));
}

import type { UserActor } from '@/server/context/actor';
import type { Database, Executor } from '@/server/db/client';
import { afterCommit, databaseOf } from '@/server/db/transaction';

/**
 * What can change who a cached token stands for: one token family (revoked: sign-out, revocation, a password
 * change), one user (role, e-mail, name, `restricted`, deleted), one customer (`restricted`, name, network
 * owner flag, deleted), or everything (the change feed was interrupted).
 */
export type AuthChange = { familyId: string } | { userId: string } | { customerId: number } | { all: true };

/** A verified token: the caller it stands for, until the token expires or a change touches it. */
export type CachedCaller = {
  actor: UserActor;
  customerRestricted: boolean;
  /** When the access token expires (epoch ms): never served after. */
  expiresAt: number;
  /** When this process last recorded the user's activity (epoch ms). */
  activityRecordedAt: number;
};

/** A user's own view (`GET /api/v2/user/me` without `select`), shown until a change or `expiresAt`. */
export type CachedView = { userId: string; customerId: number; value: unknown; expiresAt: number };

/**
 * The in-process token cache (issue 11 point 3): token look-ups, and each caller's own user view, are served
 * from memory, and every change
 * that could alter the answer evicts at once in this process (`announceAuthChange`, before and again after
 * the writing transaction commits) and, through PostgreSQL NOTIFY, within moments in every other
 * (`auth-change-listener.ts`). It serves only while the change feed is live: without it another instance's
 * change could go unseen, so every look-up goes to the database.
 *
 * A look-up that began before a change must not store what it read: each change moves the generation, and
 * `store` drops an answer read under an older generation.
 */
export class AuthCache {
  private readonly entries = new Map<string, CachedCaller>();
  private readonly views = new Map<string, CachedView>();
  private generation = 0;
  private feedLive = false;

  constructor(readonly maxEntries: number) {}

  /** Serving from memory: a positive size and a live change feed. */
  get serving(): boolean {
    return this.maxEntries > 0 && this.feedLive;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The change feed connected (serve) or dropped (forget everything: changes may be missed meanwhile). */
  setFeedLive(live: boolean): void {
    if (!live || !this.feedLive) this.clear();
    this.feedLive = live;
  }

  /** The generation a look-up starts under; hand it to `store`. */
  begin(): number {
    return this.generation;
  }

  get(key: string, now = Date.now()): CachedCaller | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);

      return undefined;
    }
    // Least recently used goes first: re-insert on every hit (a Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);

    return entry;
  }

  store(key: string, entry: CachedCaller, generation: number): void {
    if (!this.serving || generation !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The user's own view, while no change has touched it. */
  getView(userId: string, now = Date.now()): unknown {
    if (!this.serving) return undefined;
    const view = this.views.get(userId);
    if (!view) return undefined;
    if (view.expiresAt <= now) {
      this.views.delete(userId);

      return undefined;
    }

    return view.value;
  }

  storeView(view: CachedView, generation: number): void {
    if (!this.serving || generation !== this.generation) return;
    this.views.delete(view.userId);
    this.views.set(view.userId, view);
    while (this.views.size > this.maxEntries) this.views.delete(this.views.keys().next().value!);
  }

  apply(change: AuthChange): void {
    this.generation++;
    if ('all' in change) {
      this.entries.clear();
      this.views.clear();

      return;
    }
    for (const [key, { actor }] of this.entries) {
      const hit =
        'familyId' in change
          ? actor.tokenFamilyId === change.familyId
          : 'userId' in change
            ? actor.userId === change.userId
            : actor.customerId === change.customerId;
      if (hit) this.entries.delete(key);
    }
    if ('familyId' in change) return;
    for (const [userId, view] of this.views) {
      if ('userId' in change ? userId === change.userId : view.customerId === change.customerId) this.views.delete(userId);
    }
  }

  clear(): void {
    this.apply({ all: true });
  }
}

const caches = new WeakMap<Database, AuthCache>();

/** Gives `db` its token cache (at start-up, with the change listener). */
export function installAuthCache(db: Database, cache: AuthCache): void {
  caches.set(db, cache);
}

export function authCacheOf(db: Database): AuthCache | undefined {
  return caches.get(db);
}

/**
 * Evicts what a write changes, in this process: now (so no request from here on is served the old answer)
 * and once the write's transaction commits (a look-up between the two read the old rows). Call it beside
 * the write, in its transaction. Other processes learn it from the database's NOTIFY.
 */
export function announceAuthChange(db: Executor, change: AuthChange): void {
  const database = databaseOf(db);
  const cache = database && caches.get(database);
  if (!cache) return;
  cache.apply(change);
  afterCommit(db, () => cache.apply(change));
}

/** Parses a NOTIFY payload of the `auth_change` channel; anything unreadable clears the whole cache. */
export function parseAuthChange(payload: string | undefined): AuthChange {
  try {
    const value = JSON.parse(payload ?? '') as Record<string, unknown>;
    if (typeof value.familyId === 'string') return { familyId: value.familyId };
    if (typeof value.userId === 'string') return { userId: value.userId };
    if (typeof value.customerId === 'number') return { customerId: value.customerId };
  } catch {
    // fall through
  }

  return { all: true };
}

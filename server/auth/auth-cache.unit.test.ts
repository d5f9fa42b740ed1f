import { describe, expect, it } from 'vitest';
import type { UserActor } from '@/server/context/actor';
import { AuthCache, parseAuthChange, type CachedCaller } from './auth-cache';

const actor = (userId: string, customerId: number, familyId: string): UserActor => ({
  kind: 'user',
  userId,
  email: `${userId}@example.com`,
  name: userId,
  role: 'EDITOR',
  customerId,
  customerName: 'c',
  isNetworkOwner: false,
  isRestrictedUser: false,
  tokenFamilyId: familyId,
  via: 'bearer',
});
const entry = (userId: string, customerId: number, familyId: string, expiresAt = Date.now() + 60_000): CachedCaller => ({
  actor: actor(userId, customerId, familyId),
  customerRestricted: false,
  expiresAt,
  activityRecordedAt: 0,
});

function liveCache(size = 10) {
  const cache = new AuthCache(size);
  cache.setFeedLive(true);

  return cache;
}

describe('AuthCache', () => {
  it('serves only while its change feed is live, and forgets everything when the feed drops', () => {
    const cache = new AuthCache(10);
    cache.store('a', entry('u1', 1, 'f1'), cache.begin());
    expect(cache.get('a')).toBeUndefined();
    cache.setFeedLive(true);
    cache.store('a', entry('u1', 1, 'f1'), cache.begin());
    expect(cache.get('a')?.actor.userId).toBe('u1');
    cache.setFeedLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setFeedLive(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('never serves an expired token', () => {
    const cache = liveCache();
    cache.store('a', entry('u1', 1, 'f1', Date.now() + 1000), cache.begin());
    expect(cache.get('a', Date.now() + 999)).toBeDefined();
    expect(cache.get('a', Date.now() + 1001)).toBeUndefined();
  });

  it('evicts by family, user, customer and everything', () => {
    const cache = liveCache();
    const fill = () => {
      cache.store('a', entry('u1', 1, 'f1'), cache.begin());
      cache.store('b', entry('u1', 1, 'f2'), cache.begin());
      cache.store('c', entry('u2', 1, 'f3'), cache.begin());
      cache.store('d', entry('u3', 2, 'f4'), cache.begin());
    };
    const keys = () => ['a', 'b', 'c', 'd'].filter((k) => cache.get(k));
    fill();
    cache.apply({ familyId: 'f2' });
    expect(keys()).toEqual(['a', 'c', 'd']);
    fill();
    cache.apply({ userId: 'u1' });
    expect(keys()).toEqual(['c', 'd']);
    fill();
    cache.apply({ customerId: 1 });
    expect(keys()).toEqual(['d']);
    fill();
    cache.apply({ all: true });
    expect(keys()).toEqual([]);
  });

  it('drops an answer read before a change (the look-up may have read the old rows)', () => {
    const cache = liveCache();
    const generation = cache.begin();
    cache.apply({ userId: 'someone else' });
    cache.store('a', entry('u1', 1, 'f1'), generation);
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const cache = liveCache(2);
    cache.store('a', entry('u1', 1, 'f1'), cache.begin());
    cache.store('b', entry('u2', 1, 'f2'), cache.begin());
    cache.get('a');
    cache.store('c', entry('u3', 1, 'f3'), cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it('a size of 0 serves nothing', () => {
    const cache = new AuthCache(0);
    cache.setFeedLive(true);
    cache.store('a', entry('u1', 1, 'f1'), cache.begin());
    expect(cache.serving).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('parseAuthChange', () => {
  it('reads the three payloads and clears everything for anything else', () => {
    expect(parseAuthChange('{"familyId":"f"}')).toEqual({ familyId: 'f' });
    expect(parseAuthChange('{"userId":"u"}')).toEqual({ userId: 'u' });
    expect(parseAuthChange('{"customerId":7}')).toEqual({ customerId: 7 });
    expect(parseAuthChange('{"customerId":"7"}')).toEqual({ all: true });
    expect(parseAuthChange('garbage')).toEqual({ all: true });
    expect(parseAuthChange(undefined)).toEqual({ all: true });
  });
});

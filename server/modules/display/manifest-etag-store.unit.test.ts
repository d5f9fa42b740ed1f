import { describe, expect, it } from 'vitest';
import { ManifestEtagStore } from './manifest-etag-store';

const DAY = 86_400_000;

function live(): ManifestEtagStore {
  const store = new ManifestEtagStore(3);
  store.setFeedLive(true);

  return store;
}

describe('ManifestEtagStore', () => {
  it('answers the ETag of the period it was worked out for only', () => {
    const store = live();
    store.store('d1', 'e1', 2 * DAY, store.begin());
    expect(store.get('d1', 2 * DAY)).toBe('e1');
    // The next UTC day: another URL period, another ETag.
    expect(store.get('d1', 3 * DAY)).toBeUndefined();
  });

  it('does not store what a computation read before a drop of its device, or before everything was cleared', () => {
    const store = live();
    const before = store.begin();
    store.drop(['d1']);
    store.store('d1', 'stale', DAY, before);
    store.store('d2', 'fine', DAY, before);
    expect(store.get('d1', DAY)).toBeUndefined();
    expect(store.get('d2', DAY)).toBe('fine');
    const later = store.begin();
    store.clear();
    store.store('d2', 'stale', DAY, later);
    expect(store.get('d2', DAY)).toBeUndefined();
    store.store('d2', 'fresh', DAY, store.begin());
    expect(store.get('d2', DAY)).toBe('fresh');
  });

  it('serves only while the notice feed is live, and starts empty when it comes back', () => {
    const store = new ManifestEtagStore();
    store.store('d1', 'e1', DAY, store.begin());
    expect(store.get('d1', DAY)).toBeUndefined();
    store.setFeedLive(true);
    store.store('d1', 'e1', DAY, store.begin());
    store.setFeedLive(false);
    expect(store.get('d1', DAY)).toBeUndefined();
    store.setFeedLive(true);
    expect(store.get('d1', DAY)).toBeUndefined();
  });

  it('keeps at most its size, the oldest stored going first', () => {
    const store = live();
    for (const id of ['a', 'b', 'c', 'd']) store.store(id, id, DAY, store.begin());
    expect(store.size).toBe(3);
    expect(store.get('a', DAY)).toBeUndefined();
    expect(store.get('d', DAY)).toBe('d');
  });
});

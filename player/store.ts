import type { PlayEvent, Queued } from './pop-batch';

/*
 * The player's IndexedDB: its credentials and last manifest (`kv`), and the proof-of-play queue (`plays`,
 * keys in arrival order). A reload or an outage loses nothing: events leave the queue only once uploaded.
 */

const DB_NAME = 'signage-player';
const VERSION = 1;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export class PlayerStore {
  private constructor(private readonly db: IDBDatabase) {}

  static open(): Promise<PlayerStore> {
    const req = indexedDB.open(DB_NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('kv')) db.createObjectStore('kv');
      if (!db.objectStoreNames.contains('plays')) db.createObjectStore('plays', { autoIncrement: true });
    };

    return request(req).then((db) => new PlayerStore(db));
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await request(this.db.transaction('kv').objectStore('kv').get(key))) as T | undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction('kv', 'readwrite');
    tx.objectStore('kv').put(value, key);
    await done(tx);
  }

  async delete(key: string): Promise<void> {
    const tx = this.db.transaction('kv', 'readwrite');
    tx.objectStore('kv').delete(key);
    await done(tx);
  }

  async enqueue(event: PlayEvent): Promise<void> {
    const tx = this.db.transaction('plays', 'readwrite');
    tx.objectStore('plays').add(event);
    await done(tx);
  }

  /** The oldest `limit` queued events with their keys. */
  async oldest(limit: number): Promise<Queued[]> {
    const tx = this.db.transaction('plays');
    const store = tx.objectStore('plays');
    const [keys, values] = await Promise.all([request(store.getAllKeys(null, limit)), request(store.getAll(null, limit))]);

    return keys.map((key, i) => ({ key: key as number, event: values[i] as PlayEvent }));
  }

  async remove(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    const tx = this.db.transaction('plays', 'readwrite');
    const store = tx.objectStore('plays');
    // Keys are consecutive from the oldest: one range delete.
    store.delete(IDBKeyRange.bound(Math.min(...keys), Math.max(...keys)));
    await done(tx);
  }

  async count(): Promise<number> {
    return request(this.db.transaction('plays').objectStore('plays').count());
  }
}

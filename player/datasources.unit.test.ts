import { describe, expect, it, vi } from 'vitest';
import { bareEtag, DatasourceStore, listedDatasources } from './datasources';

/** The device API as the store calls it: answers queued per datasource, every call recorded. */
function fakeApi() {
  const answers = new Map<string, (() => Response | Promise<Response>)[]>();
  const calls: { path: string; ifNoneMatch?: string }[] = [];
  const api = {
    call: vi.fn(async (_method: string, path: string, init: { headers?: Record<string, string> } = {}) => {
      calls.push({ path, ifNoneMatch: init.headers?.['if-none-match'] });
      const next = answers.get(path)?.shift();
      if (!next) throw new TypeError('offline');

      return next();
    }),
  };
  const answer = (id: string, ...responses: (() => Response | Promise<Response>)[]) =>
    answers.set(`/api/display/datasource/${id}`, [...(answers.get(`/api/display/datasource/${id}`) ?? []), ...responses]);

  return { api, calls, answer };
}

const ok = (data: unknown, etag: string) => () => Response.json(data, { headers: { etag: `"${etag}"` } });
const notModified = () => () => new Response(null, { status: 304 });

/** IndexedDB's key-value part, in memory; kept across "reloads" when passed to the next store. */
function memoryStore(kv = new Map<string, unknown>()) {
  return {
    kv,
    get: async <T>(key: string) => structuredClone(kv.get(key)) as T | undefined,
    set: async (key: string, value: unknown) => void kv.set(key, structuredClone(value)),
    delete: async (key: string) => void kv.delete(key),
  };
}

const manifest = (...entries: [id: string, etag: string][]) => ({
  etag: 'm',
  datasources: Object.fromEntries(entries.map(([id, etag]) => [id, { id, name: `Source ${id}`, structureType: 'KEY_VALUE', etag }])),
});

describe('the datasources a manifest lists', () => {
  it('reads the optional field, later manifests winning, and skips what is not well formed', () => {
    const listed = listedDatasources(
      manifest(['a', '1'], ['b', '1']),
      undefined,
      { etag: 'older server' },
      { datasources: { b: { id: 'b', etag: 'W/"2"' }, c: { id: 7, etag: 'x' }, d: 'nonsense' } },
    );
    expect([...listed.keys()]).toEqual(['a', 'b']);
    expect(listed.get('b')).toEqual({ id: 'b', name: '', structureType: '', etag: '2' });
    expect(listedDatasources({ datasources: [1, 2] }).size).toBe(0);
    expect(bareEtag('"abc"')).toBe('abc');
  });
});

describe('the datasource store', () => {
  it('reads each listed datasource once and again only when its ETag moves (If-None-Match; 304 keeps the data)', async () => {
    const { api, calls, answer } = fakeApi();
    const store = new DatasourceStore({ api, store: memoryStore() });
    answer('a', ok({ price: 1 }, 'e1'));
    await store.update(listedDatasources(manifest(['a', 'e1'])));
    expect(store.read('a')).toEqual({ price: 1 });
    expect(calls).toEqual([{ path: '/api/display/datasource/a', ifNoneMatch: undefined }]);
    // The same ETag in the next manifest: no read.
    await store.update(listedDatasources(manifest(['a', 'e1'])));
    expect(calls).toHaveLength(1);
    // A new ETag: a conditional read; 304 keeps the document.
    answer('a', notModified());
    await store.update(listedDatasources(manifest(['a', 'e2'])));
    expect(calls[1]).toEqual({ path: '/api/display/datasource/a', ifNoneMatch: '"e1"' });
    expect(store.read('a')).toEqual({ price: 1 });
    // Confirmed for that manifest ETag: the manifest read ten minutes later reads nothing again.
    await store.update(listedDatasources(manifest(['a', 'e2'])));
    expect(calls).toHaveLength(2);
  });

  it('keeps the last document when a read fails, and tells no one', async () => {
    const { api, answer } = fakeApi();
    const notes: string[] = [];
    const store = new DatasourceStore({ api, store: memoryStore(), note: (m) => notes.push(m) });
    answer('a', ok({ v: 1 }, 'e1'));
    await store.update(listedDatasources(manifest(['a', 'e1'])));
    const onChange = vi.fn();
    store.subscribe('a', onChange);
    answer('a', () => new Response('{"message":"boom"}', { status: 500 }));
    await store.changed('a');
    answer('a', () => new Response('not json', { status: 200 }));
    await store.changed('a');
    await store.changed('a'); // offline: the fake throws
    expect(store.read('a')).toEqual({ v: 1 });
    expect(onChange).not.toHaveBeenCalled();
    expect(notes).toHaveLength(3);
  });

  it('reads once per datasourceChanged and calls its subscribers once; a change during a read reads once more', async () => {
    const { api, calls, answer } = fakeApi();
    const store = new DatasourceStore({ api, store: memoryStore() });
    answer('a', ok({ v: 1 }, 'e1'));
    answer('b', ok({ v: 'b' }, 'e1'));
    await store.update(listedDatasources(manifest(['a', 'e1'], ['b', 'e1'])));
    const onA = vi.fn();
    const onB = vi.fn();
    store.subscribe('a', onA);
    store.subscribe('b', onB);
    answer('a', ok({ v: 2 }, 'e2'));
    await store.changed('a');
    expect(calls.filter((c) => c.path.endsWith('/a'))).toHaveLength(2);
    expect(onA).toHaveBeenCalledOnce();
    expect(onB).not.toHaveBeenCalled();
    expect(store.read('a')).toEqual({ v: 2 });
    // Two frames while a read is under way: that read, then exactly one more.
    let release = () => {};
    answer('a', () => new Promise<Response>((resolve) => (release = () => resolve(ok({ v: 3 }, 'e3')()))), ok({ v: 4 }, 'e4'));
    const first = store.changed('a');
    await Promise.resolve();
    void store.changed('a');
    void store.changed('a');
    release();
    await first;
    expect(calls.filter((c) => c.path.endsWith('/a'))).toHaveLength(4);
    expect(store.read('a')).toEqual({ v: 4 });
    // The same document again (a 200 without a change) does not redraw.
    answer('a', ok({ v: 4 }, 'e5'));
    onA.mockClear();
    await store.changed('a');
    expect(onA).not.toHaveBeenCalled();
    // A frame for a datasource no manifest lists reads nothing.
    await store.changed('other');
    expect(calls.some((c) => c.path.endsWith('/other'))).toBe(false);
  });

  it('keeps the documents across a reload, so a start without network shows the last data', async () => {
    const kv = new Map<string, unknown>();
    const first = fakeApi();
    first.answer('a', ok({ room: 'Blue' }, 'e1'));
    await new DatasourceStore({ api: first.api, store: memoryStore(kv) }).update(listedDatasources(manifest(['a', 'e1'])));
    const offline = fakeApi();
    const reloaded = new DatasourceStore({ api: offline.api, store: memoryStore(kv) });
    const onChange = vi.fn();
    reloaded.subscribe('a', onChange);
    await reloaded.restore();
    expect(reloaded.read('a')).toEqual({ room: 'Blue' });
    expect(onChange).toHaveBeenCalledOnce();
    // The saved manifest lists the same ETag: nothing to read.
    await reloaded.update(listedDatasources(manifest(['a', 'e1'])));
    expect(offline.calls).toHaveLength(0);
  });

  it('forgets the datasources no manifest lists any more (kept data too), and a read that ends after', async () => {
    const kv = new Map<string, unknown>();
    const { api, answer } = fakeApi();
    const store = new DatasourceStore({ api, store: memoryStore(kv) });
    answer('a', ok({ v: 'a' }, '1'));
    answer('b', ok({ v: 'b' }, '1'));
    await store.update(listedDatasources(manifest(['a', '1'], ['b', '1'])));
    expect(kv.get('datasources')).toEqual(['a', 'b']);
    const onB = vi.fn();
    store.subscribe('b', onB);
    await store.update(listedDatasources(manifest(['a', '1'])));
    expect(store.read('b')).toBeUndefined();
    expect(onB).toHaveBeenCalledOnce();
    expect(kv.has('datasource:b')).toBe(false);
    expect(kv.get('datasources')).toEqual(['a']);
    // A read under way when its datasource is dropped does not bring it back.
    let release = () => {};
    answer('c', () => new Promise<Response>((resolve) => (release = () => resolve(ok({ v: 'c' }, '1')()))));
    const reading = store.update(listedDatasources(manifest(['a', '1'], ['c', '1'])));
    await Promise.resolve();
    await store.update(listedDatasources(manifest(['a', '1'])));
    release();
    await reading;
    expect(store.read('c')).toBeUndefined();
    expect(kv.has('datasource:c')).toBe(false);
  });
});

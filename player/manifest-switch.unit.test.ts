import { describe, expect, it } from 'vitest';
import { ManifestSwitch, type SwitchDeps } from './manifest-switch';
import { mediaKey, missingFiles, staleKeys, unionFiles, type FileRef } from './media-cache';

type M = { etag: string; validUntil: number; files: string[] };

const file = (id: string, crc = `crc-${id}`): FileRef => ({ id, url: `https://cdn.example/${id}?sig=1`, crc, contentType: 'image/png' });

/** A player whose worker downloads when told to (`finish`), recording the order of what happens. */
function harness(options: { canPrefetch?: boolean; now?: number } = {}) {
  const events: string[] = [];
  let playing: M | undefined;
  const downloads = new Map<string, () => void>();
  const waits: { ms: number; done: () => void }[] = [];
  const deps: SwitchDeps<M> = {
    current: () => playing,
    now: () => options.now ?? 1_000,
    canPrefetch: () => options.canPrefetch ?? true,
    prefetch: (next) => {
      events.push(`prefetch ${next.etag}`);
      return new Promise<void>((resolve) => downloads.set(next.etag, resolve));
    },
    apply: (next) => {
      events.push(`apply ${next.etag}`);
      playing = next;
    },
    prune: async (now, waiting) => {
      events.push(`prune ${now.etag}${waiting ? ` keeping ${waiting.etag}` : ''}`);
    },
    wait: (ms) => new Promise<void>((done) => waits.push({ ms, done })),
  };
  const switcher = new ManifestSwitch(deps, 300_000);

  return { switcher, events, finish: (etag: string) => downloads.get(etag)?.(), waits, playing: () => playing };
}

const manifest = (etag: string, validUntil = 100_000): M => ({ etag, validUntil, files: [] });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('moving to a new manifest', () => {
  it('switches to the first manifest at once (nothing plays), then keeps only its files', async () => {
    const h = harness();
    expect(await h.switcher.offer(manifest('a'))).toBe(true);
    expect(h.events).toEqual(['apply a', 'prune a']);
  });

  it("downloads the next manifest's files while the current one plays, and switches only then", async () => {
    const h = harness();
    await h.switcher.offer(manifest('a'));
    h.events.length = 0;
    const switched = h.switcher.offer(manifest('b'));
    await settle();
    // The old manifest plays on, its files kept; the newest known ETag is the one downloading.
    expect(h.events).toEqual(['prefetch b']);
    expect(h.playing()?.etag).toBe('a');
    expect(h.switcher.newestEtag()).toBe('b');
    h.finish('b');
    expect(await switched).toBe(true);
    expect(h.events).toEqual(['prefetch b', 'apply b', 'prune b']);
  });

  it('a newer manifest offered during the download replaces the one waiting, whose files are not pruned away', async () => {
    const h = harness();
    await h.switcher.offer(manifest('a'));
    h.events.length = 0;
    const b = h.switcher.offer(manifest('b'));
    await settle();
    const c = h.switcher.offer(manifest('c'));
    await settle();
    h.finish('b');
    expect(await b).toBe(false);
    expect(h.playing()?.etag).toBe('a');
    h.finish('c');
    expect(await c).toBe(true);
    expect(h.events).toEqual(['prefetch b', 'prefetch c', 'apply c', 'prune c']);
  });

  it('tells the worker to keep the files of a manifest still downloading when it prunes', async () => {
    const h = harness();
    await h.switcher.offer(manifest('a'));
    h.events.length = 0;
    // A prune of the manifest just switched to, while a newer one has started downloading.
    const deps = (h.switcher as unknown as { deps: SwitchDeps<M> }).deps;
    const apply = deps.apply;
    let c: Promise<boolean> | undefined;
    deps.apply = (next) => {
      void apply(next);
      if (next.etag === 'b') c = h.switcher.offer(manifest('c'));
    };
    const b = h.switcher.offer(manifest('b'));
    await settle();
    h.finish('b');
    await b;
    expect(h.events).toEqual(['prefetch b', 'apply b', 'prefetch c', 'prune b keeping c']);
    h.finish('c');
    expect(await c).toBe(true);
  });

  it('switches anyway when the download takes longer than its bound, or than the current manifest is valid', async () => {
    const h = harness({ now: 1_000 });
    await h.switcher.offer(manifest('a', 61_000));
    h.events.length = 0;
    const b = h.switcher.offer(manifest('b'));
    await settle();
    // The bound: the current manifest's remaining 60 s, under the 300 s allowed.
    expect(h.waits.map((w) => w.ms)).toEqual([60_000]);
    h.waits[0]!.done();
    expect(await b).toBe(true);
    expect(h.events).toEqual(['prefetch b', 'apply b', 'prune b']);
  });

  it('switches at once without a service worker, when the current manifest has run out, or for the same ETag', async () => {
    const noWorker = harness({ canPrefetch: false });
    await noWorker.switcher.offer(manifest('a'));
    await noWorker.switcher.offer(manifest('b'));
    expect(noWorker.events).toEqual(['apply a', 'prune a', 'apply b', 'prune b']);

    // Whether the current manifest still plays decides: 'a' valid until 150 000 has run out at 200 000.
    const late = harness({ now: 200_000 });
    await late.switcher.offer(manifest('a', 150_000));
    await late.switcher.offer(manifest('b', 400_000));
    expect(late.events).toEqual(['apply a', 'prune a', 'apply b', 'prune b']);

    const same = harness();
    await same.switcher.offer(manifest('a'));
    await same.switcher.offer(manifest('a'));
    expect(same.events).toEqual(['apply a', 'prune a', 'apply a', 'prune a']);
  });

  it('a failed download does not stop the switch', async () => {
    const h = harness();
    await h.switcher.offer(manifest('a'));
    const deps = (h.switcher as unknown as { deps: SwitchDeps<M> }).deps;
    deps.prefetch = () => Promise.reject(new Error('offline'));
    expect(await h.switcher.offer(manifest('b'))).toBe(true);
    expect(h.playing()?.etag).toBe('b');
  });
});

describe('the media cache', () => {
  it('keys a file by id and checksum, so a new signed URL of the same bytes is the same entry', () => {
    expect(mediaKey(file('f 1', 'abc'))).toBe('/player/media/f%201?v=abc');
    const resigned: FileRef = { ...file('f1'), url: 'https://other/f1?sig=2' };
    expect(mediaKey(resigned)).toBe(mediaKey(file('f1')));
  });

  it('answers for the files of both manifests while the next one downloads (its URLs win)', () => {
    const current = [file('a'), file('b')];
    const next = [{ ...file('b'), url: 'https://cdn.example/b?sig=2' }, file('c')];
    const union = unionFiles(current, next);
    expect(union.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(union.find((f) => f.id === 'b')?.url).toBe('https://cdn.example/b?sig=2');
  });

  it('removes the files no manifest kept references, and nothing else of the cache', () => {
    const cached = [mediaKey(file('a')), mediaKey(file('b')), mediaKey(file('c', 'old')), '/player/media-map.json'];
    expect(staleKeys(cached, [file('b'), file('c')])).toEqual([mediaKey(file('a')), mediaKey(file('c', 'old'))]);
    expect(staleKeys(cached, unionFiles([file('a')], [file('b'), file('c', 'old')]))).toEqual([]);
  });

  it("downloads each missing file once, in the manifest's order", () => {
    const list = [file('a'), file('b'), file('a'), file('c')];
    expect(missingFiles(list, new Set([mediaKey(file('b'))])).map((f) => f.id)).toEqual(['a', 'c']);
  });
});

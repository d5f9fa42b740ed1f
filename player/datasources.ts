import type { DatasourceFeed } from '@/lib/player/datasource-widget';
import type { DeviceApi } from './api';
import type { PlayerStore } from './store';

/*
 * The data of the datasources the screen's contents show (spec 5 §2), for the renderer's datasource widgets. The
 * manifest lists them with an ETag each; a datasource whose ETag is not the one held is read with
 * `GET /api/display/datasource/{id}` (If-None-Match), and again on each `datasourceChanged`. Documents are kept
 * in IndexedDB, so a reload without network shows the last data; a failed read keeps it too. Datasources no
 * manifest lists any more are forgotten.
 */

type ListedDatasource = { id: string; name: string; structureType: string; etag: string };
type Held = { etag: string; data: unknown };

const INDEX_KEY = 'datasources';
const keyOf = (id: string) => `datasource:${id}`;

/** An ETag as compared and stored: without `W/` and quotes (the header has them, the manifest may not). */
export function bareEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The datasources the manifests list (their optional `datasources`: servers before datasources send none), a later
 * manifest's entry winning; entries that are not well formed are skipped.
 */
export function listedDatasources(...manifests: (object | undefined)[]): Map<string, ListedDatasource> {
  const listed = new Map<string, ListedDatasource>();
  for (const manifest of manifests) {
    const entries = manifest && 'datasources' in manifest && isRecord(manifest.datasources) ? Object.values(manifest.datasources) : [];
    for (const entry of entries) {
      if (!isRecord(entry) || typeof entry.id !== 'string' || !entry.id || entry.id.length > 64) continue;
      listed.set(entry.id, {
        id: entry.id,
        name: typeof entry.name === 'string' ? entry.name : '',
        structureType: typeof entry.structureType === 'string' ? entry.structureType : '',
        // No etag (system datasources, computed when read): never taken as current; the read is conditional anyway.
        etag: typeof entry.etag === 'string' ? bareEtag(entry.etag) : '',
      });
    }
  }

  return listed;
}

export class DatasourceStore implements DatasourceFeed {
  private readonly held = new Map<string, Held>();
  private listed = new Map<string, ListedDatasource>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly reading = new Map<string, Promise<void>>();
  /** A change was announced while a read was under way: read once more when it ends. */
  private readonly again = new Set<string>();
  /** The manifest ETag each datasource was last confirmed current for (the server's header may be written otherwise). */
  private readonly confirmed = new Map<string, string>();

  constructor(
    private readonly deps: {
      api: Pick<DeviceApi, 'call'>;
      store: Pick<PlayerStore, 'get' | 'set' | 'delete'>;
      note?: (message: string) => void;
    },
  ) {}

  read(id: string): unknown {
    return this.held.get(id)?.data;
  }

  subscribe(id: string, onChange: () => void): () => void {
    const set = this.listeners.get(id) ?? new Set();
    set.add(onChange);
    this.listeners.set(id, set);

    return () => {
      set.delete(onChange);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  /** The documents kept by the last run (a start without network shows them). */
  async restore(): Promise<void> {
    const ids = await this.deps.store.get<unknown>(INDEX_KEY).catch(() => undefined);
    for (const id of Array.isArray(ids) ? ids : []) {
      if (typeof id !== 'string' || this.held.has(id)) continue;
      const saved = await this.deps.store.get<unknown>(keyOf(id)).catch(() => undefined);
      if (!isRecord(saved) || typeof saved.etag !== 'string' || !('data' in saved)) continue;
      this.held.set(id, { etag: saved.etag, data: saved.data });
      this.notify(id);
    }
  }

  /**
   * What the manifests list now: each datasource whose ETag is not the one held is read; the ones no longer listed
   * are forgotten (their widgets show their placeholder). Resolves when the reads are done.
   */
  async update(listed: Map<string, ListedDatasource>): Promise<void> {
    this.listed = listed;
    const dropped = [...this.held.keys()].filter((id) => !listed.has(id));
    for (const id of dropped) {
      this.held.delete(id);
      this.confirmed.delete(id);
      this.notify(id);
      await this.deps.store.delete(keyOf(id)).catch((err: unknown) => this.note(`forgetting datasource ${id} failed: ${String(err)}`));
    }
    if (dropped.length > 0) await this.saveIndex();
    await Promise.all([...listed.values()].filter((d) => !this.isCurrent(d)).map((d) => this.fetch(d.id)));
  }

  /** `datasourceChanged`: the datasource is read again (a listed one only). */
  changed(id: string): Promise<void> {
    return this.listed.has(id) ? this.fetch(id) : Promise.resolve();
  }

  /** Every listed datasource read again (after the line was down and changes may have been missed). */
  async refreshAll(): Promise<void> {
    await Promise.all([...this.listed.keys()].map((id) => this.fetch(id)));
  }

  private isCurrent(listed: ListedDatasource): boolean {
    const held = this.held.get(listed.id);

    return held !== undefined && listed.etag !== '' && (held.etag === listed.etag || this.confirmed.get(listed.id) === listed.etag);
  }

  /** One read of a datasource at a time; a change announced meanwhile makes one more read after it. */
  private fetch(id: string): Promise<void> {
    const running = this.reading.get(id);
    if (running) {
      this.again.add(id);

      return running;
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(id);
          await this.load(id);
        } while (this.again.has(id));
      } finally {
        this.reading.delete(id);
      }
    })();
    this.reading.set(id, run);

    return run;
  }

  private async load(id: string): Promise<void> {
    const held = this.held.get(id);
    const listedEtag = this.listed.get(id)?.etag;
    try {
      const res = await this.deps.api.call('GET', `/api/display/datasource/${encodeURIComponent(id)}`, {
        headers: held ? { 'if-none-match': `"${held.etag}"` } : {},
      });
      if (res.status === 304) {
        if (listedEtag !== undefined) this.confirmed.set(id, listedEtag);
        return;
      }
      if (!res.ok) {
        this.note(`datasource ${id} answered ${res.status}; the last data stays`);
        return;
      }
      const data: unknown = await res.json();
      // Forgotten while it was being read: a newer manifest does not show it.
      if (!this.listed.has(id)) return;
      const etag = bareEtag(res.headers.get('etag') ?? listedEtag ?? '');
      if (listedEtag !== undefined) this.confirmed.set(id, listedEtag);
      const isNew = !held || JSON.stringify(held.data) !== JSON.stringify(data);
      this.held.set(id, { etag, data });
      if (isNew) this.notify(id);
      await this.deps.store
        .set(keyOf(id), { etag, data })
        .catch((err: unknown) => this.note(`keeping datasource ${id} failed: ${String(err)}`));
      if (!held) await this.saveIndex();
    } catch (err) {
      this.note(`datasource ${id} could not be read (${err instanceof Error ? err.message : String(err)}); the last data stays`);
    }
  }

  private async saveIndex(): Promise<void> {
    await this.deps.store
      .set(INDEX_KEY, [...this.held.keys()])
      .catch((err: unknown) => this.note(`saving the datasources failed: ${String(err)}`));
  }

  private notify(id: string): void {
    for (const listener of [...(this.listeners.get(id) ?? [])]) {
      try {
        listener();
      } catch (err) {
        this.note(`a datasource widget failed to redraw: ${String(err)}`);
      }
    }
  }

  private note(message: string): void {
    this.deps.note?.(message);
  }
}

import type { Executor } from '@/server/db/client';
import { afterCommit, withTransaction } from '@/server/db/transaction';
import { OutboundError, type OutboundClient, type OutboundResponse } from '@/server/outbound';
import { storeDocument } from './datasource-document';
import { refreshFileDatasource } from './datasource-file';
import { kindOf } from './datasource-kind';
import {
  failureMessage,
  recordFailure,
  recordSuccess,
  RefreshFailure,
  type RefreshDeps,
  type RefreshOutcome,
} from './datasource-refresh-state';
import * as q from './datasources.queries';
import type { DatasourceKind } from './datasources.schemas';
import type { RemoteValidators } from './datasources.table';
import { expandCalendar, FormatError, parseCap, parseFeed, parseJsonDocument, parseXmlDocument, scrapeWebsite, type Feed } from './formats';

export { DEACTIVATE_AFTER_ERRORS, RefreshFailure, type RefreshDeps, type RefreshOutcome } from './datasource-refresh-state';
/** The most bytes a fetched document may have (spec 5 §1). */
const MAX_FETCH_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/**
 * How long a claimed datasource belongs to the instance refreshing it: its `next_refresh_at` is pushed this far while
 * the refresh runs, so no other instance takes it; a refresh lost with its instance is retried when the lease ends.
 */
export const REFRESH_LEASE_MS = 2 * 60_000;

/** What fetching and parsing gave: a new document, or nothing new (a 304). */
export type Fetched = { kind: 'document'; document: unknown; validators: RemoteValidators | null } | { kind: 'notModified' };

/** Types whose document depends on the clock or on earlier documents: always fetched whole (no conditional request). */
const ALWAYS_WHOLE = new Set(['ICAL', 'CAP']);

/**
 * Fetches an external datasource's remote and turns it into its data document (spec 5 §2). No database: the
 * refresh and the console's "Test" share it. `previous`: the stored document and the validators it came with.
 */
export async function fetchDocument(
  outbound: OutboundClient,
  kind: DatasourceKind,
  previous: { document: unknown; validators: RemoteValidators | null } | undefined,
  now: number,
  limits: RefreshDeps['limits'] = {},
): Promise<Fetched> {
  const type = kind.type ?? '';
  const conditional = previous && !ALWAYS_WHOLE.has(type) ? (previous.validators ?? undefined) : undefined;
  const settings = kind.requestSettings;
  let response: OutboundResponse;
  try {
    response = await outbound.fetch(
      {
        url: kind.remoteUrl ?? '',
        method: settings?.method ?? 'GET',
        headers: settings?.headers,
        body: settings?.method === 'POST' ? settings.body : undefined,
        validators: conditional,
      },
      { ...limits, maxBytes: MAX_FETCH_BYTES, maxRedirects: MAX_REDIRECTS },
    );
  } catch (err) {
    if (err instanceof OutboundError) throw new RefreshFailure(err.message);
    throw err;
  }
  if (response.notModified) return { kind: 'notModified' };
  if (response.status < 200 || response.status > 299) throw new RefreshFailure(`The server answered HTTP ${response.status}`);
  const validators = response.validators.etag || response.validators.lastModified ? response.validators : null;
  try {
    return { kind: 'document', document: parse(kind, response, previous?.document, now), validators };
  } catch (err) {
    if (err instanceof FormatError) throw new RefreshFailure(err.message);
    throw err;
  }
}

function parse(kind: DatasourceKind, response: OutboundResponse, previous: unknown, now: number): unknown {
  const body = response.body;
  const contentType = response.headers['content-type'];
  const jsonPath = kind.requestSettings?.jsonPath;
  switch (kind.type) {
    case 'JSON':
      return parseJsonDocument(body, { jsonPath, contentType });
    case 'XML':
      return parseXmlDocument(body, { jsonPath, contentType });
    case 'RSS':
      return parseFeed(body, {
        contentType,
        previous: asFeed(previous),
        keepLastXDays: kind.keepLastXDays,
        keepLastXItem: kind.keepLastXItem,
        now,
      });
    case 'ICAL':
      return expandCalendar(body, { timeZone: kind.timeZone ?? 'UTC', now, contentType });
    case 'CAP':
      return parseCap(body, {
        contentType,
        previous: asFeed(previous),
        areaFilter: kind.capParameters?.areaFilter,
        minimumSeverity: kind.capParameters?.minimumSeverity,
        now,
      });
    case 'WEBSITE_CONTENT':
      return scrapeWebsite(body, { selectors: kind.webScraperParameters?.selectors ?? [], contentType, baseUrl: response.finalUrl });
    default:
      throw new RefreshFailure(`Datasources of type ${kind.type} cannot be fetched`);
  }
}

function asFeed(document: unknown): Feed | undefined {
  return document && typeof document === 'object' && Array.isArray((document as { items?: unknown }).items)
    ? (document as Feed)
    : undefined;
}

/**
 * Refreshes one external datasource: fetches and parses outside any transaction (a slow remote holds no lock),
 * then, with the row locked, stores the document when it changed (spec 5 §2: `lastUpdated`, `datasourceChanged`),
 * or counts the failure, keeping the last good data; at 25 consecutive failures the datasource is deactivated.
 * The next refresh is then scheduled from now. A FILE_FROM_URL datasource keeps a file instead (datasource-file.ts).
 */
export async function refreshDatasource(deps: RefreshDeps, id: string): Promise<RefreshOutcome | undefined> {
  const now = deps.now?.() ?? Date.now();
  const row = await q.findDatasourceById(deps.db, id);
  if (!row || row.sourceType !== 'EXTERNAL') return undefined;
  if (row.type === 'FILE_FROM_URL') return refreshFileDatasource(deps, row);
  const stored = await q.findDocument(deps.db, row.id);
  let fetched: Fetched | undefined;
  let error: string | undefined;
  try {
    fetched = await fetchDocument(
      deps.outbound,
      kindOf(row),
      stored ? { document: stored.document, validators: stored.validators } : undefined,
      now,
      deps.limits,
    );
  } catch (err) {
    error = failureMessage(err, deps.log, row.id);
  }

  return withTransaction(deps.db, async (tx) => {
    const current = await q.lockDatasourceById(tx, id);
    if (!current) return undefined;
    const finishedAt = new Date(deps.now?.() ?? Date.now());
    if (fetched) {
      try {
        const outcome =
          fetched.kind === 'document'
            ? await storeDocument(tx, current, fetched.document, { validators: fetched.validators, now: finishedAt })
            : { changed: false };
        await recordSuccess(tx, current, finishedAt);

        return { ok: true, changed: outcome.changed };
      } catch (err) {
        error = failureMessage(err, deps.log, id);
      }
    }

    return recordFailure(tx, current, error ?? 'The refresh failed', finishedAt);
  });
}

/** The refreshers of this process (datasources.module.ts registers its own), woken when a refresh is made due now. */
const wakers = new Set<() => void>();

export function registerRefreshWaker(wake: () => void): void {
  wakers.add(wake);
}

/**
 * Makes the datasource's refresh due now. The tick takes it within 5 s anyway; once the transaction commits this
 * process's refreshers are also woken, so it usually starts at once (a refresh is never fetched inside `tx`).
 */
export async function makeRefreshDue(tx: Executor, id: string): Promise<void> {
  await q.recordDatasourceState(tx, id, { nextRefreshAt: new Date() });
  afterCommit(tx, wakeRefreshers);
}

/** Wakes this process's refreshers: each claims what is due now (call after the due times are committed). */
export function wakeRefreshers(): void {
  for (const wake of wakers) wake();
}

/** How far ahead a refresher waits for the next due datasource itself rather than for the next tick. */
const CLAIM_AHEAD_MS = 5_000;

/**
 * This instance's refresher: each tick claims as many due datasources as it has free slots and refreshes them
 * beside the tick (a slow remote, up to 30 s, never delays the next tick or the other refreshes). When a tick filled
 * every slot, more may be due: a finished refresh claims again at once instead of waiting for the next tick (the
 * benchmark found the pool refilled only every 5 s capped refreshes at 16 per tick). When it did not, the refresher
 * claims again when the next datasource falls due, if that is before the next tick (`CLAIM_AHEAD_MS`): otherwise a
 * refresh waited up to 5 s for the tick, and its period (counted from when it was stored) moved with it.
 */
export function createRefresher(deps: RefreshDeps & { concurrency: number }) {
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const claimAtNextDue = async () => {
    const due = await q.nextDueRefreshAt(deps.db);
    if (stopped || !due) return;
    const wait = Math.max(0, due.getTime() - Date.now());
    if (wait >= CLAIM_AHEAD_MS) return;
    clearTimeout(timer);
    // Unref'd: a pending claim never keeps a stopping process alive.
    timer = setTimeout(() => void tick().catch((err: unknown) => deps.log.error({ err }, 'datasource refresh claim failed')), wait + 5);
    timer.unref?.();
  };

  const tick = async (): Promise<number> => {
    if (stopped) return 0;
    const free = deps.concurrency - running.size;
    const ids = await q.claimDueDatasources(deps.db, { limit: free, leaseMs: REFRESH_LEASE_MS });
    const full = free > 0 && ids.length === free;
    if (!full && free > 0) await claimAtNextDue();
    for (const id of ids) {
      const work = refreshDatasource(deps, id).catch((err: unknown) =>
        deps.log.error({ err, datasourceId: id }, 'datasource refresh failed'),
      );
      running.add(work);
      void work.finally(() => {
        running.delete(work);
        if (full && !stopped) tick().catch((err: unknown) => deps.log.error({ err }, 'datasource refresh claim failed'));
      });
    }

    return ids.length;
  };

  let isWakePending = false;

  return {
    tick,
    /** Claims what is due at once (several wakes before it runs make one claim). */
    wake: () => {
      if (isWakePending || stopped) return;
      isWakePending = true;
      setImmediate(() => {
        isWakePending = false;
        tick().catch((err: unknown) => deps.log.error({ err }, 'datasource refresh claim failed'));
      });
    },
    /** Waits for the refreshes under way (tests; a graceful stop). */
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
  };
}

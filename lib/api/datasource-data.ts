'use client';

import { QueryObserver, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, ok, tenantQuery } from '@/lib/api/client';
import { useTeamReads } from '@/lib/api/team-reads';
import type { DatasourceFeed } from '@/lib/player/render';
import type { Datasource } from '@/server/modules/datasources/datasources.schemas';
import { datasourceResource } from './datasources';

/*
 * One datasource as the console shows and edits it (spec 5 §2): its settings and refresh state, the content that
 * uses it, its current data document, and the feed that gives the slide editor's canvas and the content previews
 * that data. Everything lives under the `datasources` query keys, so a change made anywhere (this page, the list
 * page's dialogs) refreshes it.
 */

export type { Datasource };
// Refresh and clear-cache are the list page's mutations: one declaration each, both pages refresh the same keys.
export { useClearDatasourceCache, useRefreshDatasource } from './datasources';

/** The single reads: the list page's resource, so both pages share the `datasources` keys. */
const datasourceReads = datasourceResource;

const dataKey = (customerId: number | undefined, id: string) => [...datasourceReads.keys.all, 'data', { customerId, id }] as const;
const choicesKey = (customerId: number | undefined, teamParams: object) =>
  [...datasourceReads.keys.lists(), 'choices', { customerId, ...teamParams }] as const;

/** How often an open detail page reads the datasource and its data again (a refresh or a screen's write shows). */
export const DETAIL_REFRESH_MS = 15_000;
/** How often an open slide editor reads the data its datasource widgets show: the canvas is live. */
const EDITOR_REFRESH_MS = 10_000;
/** The datasources a widget may choose from: one page of the largest size. */
const MAX_CHOICES = 1_000;

function readData(customerId: number | undefined, id: string, signal?: AbortSignal): Promise<unknown> {
  return ok(api.GET('/api/datasource/{id}/data', { params: { path: { id }, query: tenantQuery(customerId) }, signal }));
}

/** The datasource (default projection), kept current while the page is open. */
export function useDatasource(id: string) {
  return datasourceReads.useDetail(id, { refetchInterval: DETAIL_REFRESH_MS });
}

/** The content that shows the datasource, with its widgets (`select=usageDetails`). */
export function useDatasourceUsage(id: string) {
  return datasourceReads.useDetail(id, { select: 'usageDetails' });
}

/** The data document (GET /api/datasource/{id}/data); `null` for a CUSTOM datasource that holds nothing yet. */
export function useDatasourceData(id: string, options: { refetchInterval?: number } = {}) {
  const customerId = datasourceReads.useScope();

  return useQuery({
    queryKey: dataKey(customerId, id),
    queryFn: ({ signal }) => readData(customerId, id, signal),
    refetchInterval: options.refetchInterval,
  });
}

/** `deactivated: false`: the error count starts again and the datasource refreshes at once. */
export function useReactivateDatasource() {
  return datasourceReads.useMutation((id: string, { customerId }) =>
    ok(api.PUT('/api/datasource/{id}', { params: { path: { id }, query: tenantQuery(customerId) }, body: { deactivated: false } })),
  );
}

/** PUT /api/datasource/{id}/data: the whole document of an internal datasource (400 when it does not fit, 413 past 1 MiB). */
export function useReplaceDatasourceData() {
  const queryClient = useQueryClient();
  const customerId = datasourceReads.useScope();

  return datasourceReads.useMutation(
    ({ id, document }: { id: string; document: unknown }, context) =>
      ok(api.PUT('/api/datasource/{id}/data', { params: { path: { id }, query: tenantQuery(context.customerId) }, body: document })),
    // The page shows what was stored at once, before the refetch the mutation starts.
    { onSuccess: (stored, { id }) => queryClient.setQueryData(dataKey(customerId, id), stored) },
  );
}

/** A datasource a slide's datasource widget may show. */
type DatasourceChoice = { id: string; name: string; structureType: string };

/**
 * The datasources of a tenant a datasource widget may choose from (the content's tenant: a widget names only
 * its own tenant's datasources), by name, with the caller's team read parameters.
 */
export function useDatasourceChoices(customerId: number | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: choicesKey(customerId, teamReads.params),
    queryFn: async ({ signal }): Promise<DatasourceChoice[]> => {
      const page = await ok(
        api.GET('/api/v2/datasource', {
          params: {
            query: {
              select: 'id,name,structureType',
              size: MAX_CHOICES,
              sort: ['name,asc'],
              ...teamReads.params,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
      );

      return page.content.map((d) => ({ id: d.id, name: d.name ?? d.id, structureType: d.structureType ?? 'CUSTOM' }));
    },
    enabled: enabled && teamReads.ready,
    staleTime: 30_000,
  });
}

/**
 * The renderer's `DatasourceFeed` over React Query's cache of `GET /api/datasource/{id}/data`: `read` answers the
 * cached document (and starts its read when there is none), `subscribe` watches the query, which an observer keeps
 * reading every `refetchMs` while someone listens (the canvas of an open editor is live).
 */
class QueryDatasourceFeed implements DatasourceFeed {
  private readonly watched = new Map<string, { listeners: Set<() => void>; stop: () => void }>();

  constructor(
    private readonly client: QueryClient,
    private readonly customerId: number | undefined,
    private readonly refetchMs: number | undefined,
  ) {}

  private options(id: string) {
    return {
      queryKey: dataKey(this.customerId, id),
      queryFn: ({ signal }: { signal?: AbortSignal }) => readData(this.customerId, id, signal),
      refetchInterval: this.refetchMs,
      staleTime: 5_000,
    };
  }

  read(id: string): unknown {
    const key = dataKey(this.customerId, id);
    const state = this.client.getQueryState(key);
    // Read once when nothing was ever asked; a failed read (an unknown or hidden datasource) is not retried on each draw.
    if (!state || (state.status === 'pending' && state.fetchStatus === 'idle')) void this.client.prefetchQuery(this.options(id));

    return this.client.getQueryData(key);
  }

  subscribe(id: string, onChange: () => void): () => void {
    let entry = this.watched.get(id);
    if (!entry) {
      const observer = new QueryObserver(this.client, this.options(id));
      const listeners = new Set<() => void>();
      let last = observer.getCurrentResult().data;
      // The observer reports every state (fetching, stale); only new data redraws. Structural sharing keeps the same
      // object for an unchanged document, so identity says whether it changed.
      const stop = observer.subscribe((result) => {
        if (result.data === last) return;
        last = result.data;
        for (const listener of [...listeners]) listener();
      });
      entry = { listeners, stop };
      this.watched.set(id, entry);
    }
    const current = entry;
    current.listeners.add(onChange);

    return () => {
      current.listeners.delete(onChange);
      if (current.listeners.size > 0) return;
      current.stop();
      this.watched.delete(id);
    };
  }
}

/**
 * A feed of the tenant's datasource data for the renderer (the slide editor's canvas, the previews). `live`: read
 * again every 10 s while shown (an editor); otherwise each document is read once and kept like other queries.
 */
export function useDatasourceFeed(customerId: number | undefined, { live = false }: { live?: boolean } = {}): DatasourceFeed {
  const client = useQueryClient();

  return useMemo(() => new QueryDatasourceFeed(client, customerId, live ? EDITOR_REFRESH_MS : undefined), [client, customerId, live]);
}

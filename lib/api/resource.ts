'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRunProtected } from '@/lib/api/run-protected';
import { api, ok, type QueryValue, type TypeToken } from '@/lib/api/client';
import type { paths } from '@/lib/api/generated/openapi';
import type { ProofHeaders } from '@/lib/api/protected';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';

/**
 * The console's side of one API resource, declared once: its query keys, its list and detail reads and
 * its mutations. The tenant is handled inside (every read and write carries the tenant chosen in the
 * switcher, and the key holds it so two tenants never share a cache entry), lists of team-capable
 * resources wait for and send the team read parameters, and every mutation refreshes the resource's
 * queries (and the ones it names in `invalidates`) when it succeeds.
 */

/** The GET operation of a path of the document, if it has one. */
type GetOperation<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** The JSON body of an operation's 200 answer. */
type OkBody<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
/** The paths whose GET answers a page (`{ content: [...] , totalElements, … }`): the lists `defineResource` reads. */
export type ListPath = {
  [P in keyof paths]: OkBody<GetOperation<P>> extends { content: ReadonlyArray<unknown>; totalElements: number } ? P : never;
}[keyof paths];
/** One item of a list path's page, as the document declares it. */
export type ListItemOf<P extends ListPath> = OkBody<GetOperation<P>> extends { content: ReadonlyArray<infer I> } ? I : never;
/** The paths whose GET reads one item by the one parameter in its path (`/api/adv/{advertiserId}`). */
export type DetailPath = {
  [P in keyof paths]: P extends `${string}{${string}}${string}{${string}`
    ? never
    : P extends `${string}{${string}}${string}`
      ? GetOperation<P> extends never
        ? never
        : P
      : never;
}[keyof paths];
/** The item a detail path answers, as the document declares it. */
export type DetailItemOf<P extends DetailPath> = OkBody<GetOperation<P>>;

/** Where a resource lives: the tenant chosen in the switcher, or no tenant at all (the customers themselves). */
type ResourceTenancy = 'tenant' | 'global';

/** A list page's server query: paging, sorting and the resource's own filters. */
export type ListRequest = { page: number; size: number; sort?: string };

export type ResourceDefinition<TParams extends ListRequest> = {
  /** The root of every query key of the resource, e.g. `users`. */
  key: string;
  /** The paged list operation (spec 1 paging, search, select and sort): its path in the OpenAPI document. */
  list: ListPath;
  /** The list's query parameters for the params (search, select and the resource's extras; paging and sort are added). */
  listQuery?: (params: TParams) => Record<string, QueryValue>;
  /** The operation reading one item by id, where the API has one: its path template in the document. */
  detail?: DetailPath;
  tenancy?: ResourceTenancy;
  /** A resource whose tenant is chosen otherwise (the audit log reads every tenant as -1): a hook giving the `customerId`. */
  useTenantScope?: () => number | undefined;
  /** A team-capable resource (spec 1 "Team assignment"): its lists send the caller's team read parameters. */
  teamCapable?: boolean;
  /** Other query keys a change of this resource makes stale (a usage count, a limit). */
  invalidates?: readonly QueryKey[];
};

/**
 * One page of a list operation. The path and the item type were checked against the document where the resource
 * was declared; here the operation is called by that checked path, so the one cast of the mechanism is this one.
 */
export function readPage<TItem>(path: ListPath, query: Record<string, QueryValue>, signal: AbortSignal): Promise<Page<TItem>> {
  const read = api.GET as (
    path: ListPath,
    init: { params: { query: Record<string, QueryValue> }; signal: AbortSignal },
  ) => Promise<{ data?: Page<TItem> }>;

  return ok(read(path, { params: { query }, signal }));
}

/** One item of a detail operation (see `readPage`); its one path parameter, whatever its name, is the id. */
function readOne<TItem>(path: DetailPath, id: string | number, query: Record<string, QueryValue>, signal: AbortSignal): Promise<TItem> {
  const read = api.GET as (
    path: DetailPath,
    init: { params: { path: Record<string, string | number>; query: Record<string, QueryValue> }; signal: AbortSignal },
  ) => Promise<{ data?: TItem }>;
  const name = /\{(\w+)\}/.exec(path)![1]!;

  return ok(read(path, { params: { path: { [name]: id }, query }, signal }));
}

/** The key of a tenant's list query; the scope and the params are part of it. */
function resourceKeys(key: string) {
  const all = [key] as const;

  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (customerId: number | undefined, params: object) => [...all, 'list', { customerId, ...params }] as const,
    details: () => [...all, 'detail'] as const,
    detail: (customerId: number | undefined, id: string | number) => [...all, 'detail', { customerId, id }] as const,
  };
}

/** Whether a query key is a single-item read (`[resource, 'detail', …]`). */
export function isDetailKey(key: readonly unknown[]): boolean {
  return key[1] === 'detail';
}

/** The query string of one list page: paging and sort, then the resource's own parameters. */
export function listQueryOf<TParams extends ListRequest>(definition: Pick<ResourceDefinition<TParams>, 'listQuery'>, params: TParams) {
  return { page: params.page, size: params.size, sort: params.sort, ...definition.listQuery?.(params) };
}

export type MutationContext = {
  /** The tenant the change is made in (undefined: the caller's own, or global for ADMIN). */
  customerId: number | undefined;
  /** Proof headers of a protected operation (empty unless the mutation is `protected`). */
  headers: ProofHeaders;
};

/**
 * Declares a resource from its operations: `list` (and `detail`) are paths of the OpenAPI document, so a path the
 * API does not have, or an item type that is not an answer of them, does not compile. `item` names the console's
 * type of an item (see `ok` in client.ts: the document declares a projected resource's fields optional); by
 * default it is the document's.
 */
export function defineResource<
  P extends ListPath,
  TWire extends ListItemOf<P> = ListItemOf<P>,
  TItem = TWire,
  TParams extends ListRequest = ListRequest,
  D extends DetailPath = never,
>(
  definition: ResourceDefinition<TParams> & {
    list: P;
    detail?: D & (TWire extends DetailItemOf<D> ? unknown : { error: 'the item type is not an answer of the detail read' });
    /** The item as the default projection answers it (checked against the document's item), where it says more. */
    item?: TypeToken<TWire>;
    /** An item as the console holds it, where that differs from what the API answers (list items and single reads). */
    fromWire?: (item: TWire) => TItem;
  },
) {
  const keys = resourceKeys(definition.key);
  const tenancy = definition.tenancy ?? 'tenant';
  const { fromWire } = definition;

  /** The tenant of the resource's requests. */
  const useScope =
    definition.useTenantScope ??
    function useScope(): number | undefined {
      const { customerId } = useTenant();

      return tenancy === 'tenant' ? customerId : undefined;
    };

  /**
   * One page of the list; the previous page stays shown (dimmed by the list view) while the next loads.
   * `refetchInterval` reads the page again while the page says so (an item waiting for the server's work).
   */
  function useList(
    params: TParams,
    options: { enabled?: boolean; refetchInterval?: (page: Page<TItem> | undefined) => number | false } = {},
  ) {
    const customerId = useScope();
    const teamReads = useTeamReads();
    const teamParams = definition.teamCapable ? teamReads.params : {};

    return useQuery({
      queryKey: [...keys.list(customerId, params), teamParams] as const,
      queryFn: async ({ signal }) => {
        const page = await readPage<TWire>(definition.list, { ...listQueryOf(definition, params), ...teamParams, customerId }, signal);

        return fromWire ? { ...page, content: page.content.map(fromWire) } : (page as unknown as Page<TItem>);
      },
      placeholderData: keepPreviousData,
      enabled: (options.enabled ?? true) && (!definition.teamCapable || teamReads.ready),
      refetchInterval: options.refetchInterval ? (query) => options.refetchInterval!(query.state.data) : undefined,
    });
  }

  /** How many items the caller sees, of those matching `search`: the spec's cheap count (one row, ids only, read `totalElements`). */
  function useCount(search?: string, options: { enabled?: boolean } = {}) {
    const customerId = useScope();
    const teamReads = useTeamReads();
    const teamParams = definition.teamCapable ? teamReads.params : {};

    return useQuery({
      queryKey: [...keys.lists(), 'count', { customerId, search, ...teamParams }] as const,
      queryFn: ({ signal }) =>
        readPage<TWire>(definition.list, { page: 0, size: 1, select: 'id', search, ...teamParams, customerId }, signal).then(
          (page) => page.totalElements,
        ),
      enabled: (options.enabled ?? true) && (!definition.teamCapable || teamReads.ready),
    });
  }

  /** One item; `refetchInterval` keeps a page live (a screen's status) while it is open. */
  function useDetail(
    id: string | number | null | undefined,
    options: { select?: string; enabled?: boolean; refetchInterval?: number } = {},
  ) {
    const customerId = useScope();
    if (!definition.detail) throw new Error(`${definition.key} has no single-item read`);
    const path = definition.detail;

    return useQuery({
      queryKey: [...keys.detail(customerId, id ?? ''), { select: options.select }] as const,
      queryFn: async ({ signal }) => {
        const item = await readOne<TWire>(path, id!, { select: options.select, customerId }, signal);

        return fromWire ? fromWire(item) : (item as unknown as TItem);
      },
      enabled: (options.enabled ?? true) && id !== null && id !== undefined && id !== '',
      refetchInterval: options.refetchInterval,
    });
  }

  /**
   * Everything this resource's changes make stale. After a delete, single-item reads are only marked stale,
   * not refetched: the open one may be of the item that is gone (a 404), and its page closes it instead.
   */
  function useInvalidate({ deleted = false }: { deleted?: boolean } = {}) {
    const queryClient = useQueryClient();

    return async () => {
      const others = (definition.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey }));
      if (!deleted) {
        await Promise.all([queryClient.invalidateQueries({ queryKey: keys.all }), ...others]);

        return;
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.all, predicate: (q) => !isDetailKey(q.queryKey) }),
        queryClient.invalidateQueries({ queryKey: keys.all, predicate: (q) => isDetailKey(q.queryKey), refetchType: 'none' }),
        ...others,
      ]);
    };
  }

  /**
   * A change of the resource: `run` gets the tenant and, for a `protected` operation (DECISIONS §3), the
   * proof headers of the one-time-code prompt; on success the resource's queries are refreshed.
   */
  function useResourceMutation<TInput, TResult>(
    run: (input: TInput, context: MutationContext) => Promise<TResult>,
    options: {
      protected?: boolean;
      /** The mutation deletes: the deleted item's open reads are not refetched (see `useInvalidate`). */
      deletes?: boolean;
      onSuccess?: (result: TResult, input: TInput) => unknown;
    } = {},
  ) {
    const customerId = useScope();
    const runProtected = useRunProtected();
    const invalidate = useInvalidate({ deleted: options.deletes });

    return useMutation({
      mutationFn: (input: TInput) =>
        options.protected ? runProtected((headers) => run(input, { customerId, headers })) : run(input, { customerId, headers: {} }),
      onSuccess: async (result, input) => {
        await options.onSuccess?.(result, input);
        await invalidate();
      },
    });
  }

  return { keys, definition, useScope, useList, useCount, useDetail, useInvalidate, useMutation: useResourceMutation };
}

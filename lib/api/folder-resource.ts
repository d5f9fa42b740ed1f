'use client';

import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { QueryValue, TypeToken } from '@/lib/api/client';
import {
  defineResource,
  isDetailKey,
  listQueryOf,
  readPage,
  type DetailItemOf,
  type DetailPath,
  type ListItemOf,
  type ListPath,
  type ListRequest,
  type MutationContext,
  type ResourceDefinition,
} from '@/lib/api/resource';
import { useTeamReads } from '@/lib/api/team-reads';

/**
 * The console's side of one folder tree (file folders, content folders, device folders), declared once: a
 * resource (`defineResource`) whose list reads one level of the tree, the root folder, the children of a
 * folder, and the four changes every tree has (create, rename, move, delete). A tree's own reads (counts,
 * breadcrumb) are built on `resource` beside it.
 */

/** One level of a tree: the folders directly inside `parentId` (null: the root itself), and a tree's own filters. */
export type FolderLevel = { parentId: string | null };

type FolderLevelRequest<TLevel extends FolderLevel> = ListRequest & TLevel;

/** A change of a tree: its call, given the tenant (see `defineResource`'s `useMutation`). */
type FolderChange<TInput, TResult> = (input: TInput, context: MutationContext) => Promise<TResult>;

export function defineFolderResource<
  P extends ListPath,
  TLevel extends FolderLevel,
  TWire extends ListItemOf<P>,
  D extends DetailPath,
  TCreate,
  TCreated,
  TRename,
  TRenamed,
  TMove,
  TMoved,
  TDelete,
  TDeleted,
>(
  definition: Omit<ResourceDefinition<FolderLevelRequest<TLevel>>, 'listQuery'> & {
    list: P;
    detail?: D & (TWire extends DetailItemOf<D> ? unknown : { error: 'the item type is not an answer of the detail read' });
    item: TypeToken<TWire>;
    /** The list query of one level (search, select and the tree's own parameters); `parentId` null asks for the root. */
    levelQuery: (level: TLevel) => Record<string, QueryValue>;
    /** How long the root stays fresh (a tree whose root shows nothing that changes keeps it for minutes). */
    rootStaleTime?: number;
    /**
     * The query keys of what the folders hold (files, content, devices): refreshed after every change; after a
     * delete their single reads are only marked stale (the item may be gone with its folder).
     */
    items: QueryKey;
    create: FolderChange<TCreate, TCreated>;
    rename: FolderChange<TRename, TRenamed>;
    move: FolderChange<TMove, TMoved>;
    remove: FolderChange<TDelete, TDeleted>;
  },
) {
  const { levelQuery, rootStaleTime, items, create, rename, move, remove, ...rest } = definition;
  const resource = defineResource<P, TWire, TWire, FolderLevelRequest<TLevel>, D>({ ...rest, listQuery: (params) => levelQuery(params) });

  /** The items' queries after a change of the tree (see `items`). */
  function useInvalidateItems() {
    const queryClient = useQueryClient();

    return (deleted: boolean) =>
      deleted
        ? Promise.all([
            queryClient.invalidateQueries({ queryKey: items, predicate: (q) => !isDetailKey(q.queryKey) }),
            queryClient.invalidateQueries({ queryKey: items, predicate: (q) => isDetailKey(q.queryKey), refetchType: 'none' }),
          ])
        : queryClient.invalidateQueries({ queryKey: items });
  }

  /** A change of the tree (its own, beyond the four): the tree's and its items' queries are refreshed after it. */
  function useChange<TInput, TResult>(run: FolderChange<TInput, TResult>, { deletes = false }: { deletes?: boolean } = {}) {
    const invalidateItems = useInvalidateItems();

    return resource.useMutation(run, { deletes, onSuccess: () => invalidateItems(deletes) });
  }

  /** The tenant's root folder (created with the tenant; it has no name). */
  function useRoot(level: Omit<TLevel, 'parentId'>) {
    const customerId = resource.useScope();
    const teamReads = useTeamReads();
    const teamParams = definition.teamCapable ? teamReads.params : {};

    return useQuery({
      queryKey: [...resource.keys.all, 'root', { customerId }] as const,
      queryFn: async ({ signal }) => {
        const query = {
          ...listQueryOf(resource.definition, { page: 0, size: 1, ...level, parentId: null } as FolderLevelRequest<TLevel>),
          ...teamParams,
          customerId,
        };
        const page = await readPage<TWire>(definition.list, query, signal);

        return page.content[0] ?? null;
      },
      enabled: !definition.teamCapable || teamReads.ready,
      staleTime: rootStaleTime,
    });
  }

  /** The folders directly inside `parentId`, by name (at most 500: a tree level larger than that is not browsed here). */
  function useChildren(
    parentId: string | null | undefined,
    level: Omit<TLevel, 'parentId'>,
    { enabled = true }: { enabled?: boolean } = {},
  ) {
    return resource.useList({ page: 0, size: 500, sort: 'name,asc', ...level, parentId: parentId ?? '' } as FolderLevelRequest<TLevel>, {
      enabled: Boolean(parentId) && enabled,
    });
  }

  return {
    resource,
    useRoot,
    useChildren,
    useCreate: () => useChange(create),
    useRename: () => useChange(rename),
    useMove: () => useChange(move),
    useDelete: () => useChange(remove, { deletes: true }),
    useChange,
  };
}

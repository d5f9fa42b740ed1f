'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { NULL, term, toSearch } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import type { ContentGroup, ContentGroupMove } from '@/server/modules/content-groups/content-groups.schemas';

export type { ContentGroup } from '@/server/modules/content-groups/content-groups.schemas';

const FOLDER_FIELDS = 'name,parentId,isTemplateGroup,contentGroupPath,contentCount,simpleLoopCount';

type FolderListParams = ListRequest & { parentId: string };

/** The content folders of the selected tenant: one level at a time (the tree opens them lazily). */
export const contentGroupResource = defineResource({
  item: as<ContentGroup>(),
  key: 'contentGroups',
  list: '/api/v2/contentGroup',
  listQuery: (params: FolderListParams) => ({ search: toSearch(term('parentId', '=', params.parentId)), select: FOLDER_FIELDS }),
  detail: '/api/v2/contentGroup/{id}',
  teamCapable: true,
  // The content list shows folder names and counts.
  invalidates: [['content']],
});

/** The tenant's root content folder (created with the tenant; it has no name). */
export function useContentRoot() {
  const customerId = contentGroupResource.useScope();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...contentGroupResource.keys.all, 'root', { customerId }] as const,
    queryFn: async ({ signal }) => {
      const page = await ok(
        api.GET('/api/v2/contentGroup', {
          params: { query: { size: 1, search: toSearch(term('parentId', '=', NULL)), select: FOLDER_FIELDS, ...teamReads.params, ...tenantQuery(customerId) } },
          signal,
        }),
        as<Page<ContentGroup>>(),
      );

      return page.content[0] ?? null;
    },
    enabled: teamReads.ready,
  });
}

/** The sub-folders of one folder, by name (at most 500: a tree level larger than that is not browsed here). */
export function useContentGroupChildren(parentId: string | undefined) {
  return contentGroupResource.useList({ page: 0, size: 500, sort: 'name,asc', parentId: parentId ?? '' }, { enabled: Boolean(parentId) });
}

export function useCreateContentGroup() {
  return contentGroupResource.useMutation((input: { parentGroupId: string; name: string }, { customerId }) =>
    ok(
      api.POST('/api/contentGroup', {
        params: { query: { parentGroupId: input.parentGroupId, ...tenantQuery(customerId) } },
        body: { name: input.name, deviceContentType: 'content' },
      }),
      as<ContentGroup>(),
    ),
  );
}

export function useRenameContentGroup() {
  return contentGroupResource.useMutation((input: { id: string; name: string }, { customerId }) =>
    ok(api.PUT('/api/contentGroup/{id}', { params: { path: { id: input.id }, query: tenantQuery(customerId) }, body: { name: input.name } }), as<ContentGroup>()),
  );
}

export function useDeleteContentGroup() {
  return contentGroupResource.useMutation(
    (input: { id: string; removeContents: boolean }, { customerId }) =>
      ok(api.DELETE('/api/contentGroup/{id}', { params: { path: { id: input.id }, query: { removeContents: input.removeContents, ...tenantQuery(customerId) } } })),
    { deletes: true },
  );
}

export function useMoveToContentGroup() {
  return contentGroupResource.useMutation((input: ContentGroupMove, { customerId }) =>
    ok(api.POST('/api/contentGroup/move', { params: { query: tenantQuery(customerId) }, body: input })),
  );
}

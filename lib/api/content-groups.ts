'use client';

import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { defineFolderResource, type FolderLevel } from '@/lib/api/folder-resource';
import { NULL, term, toSearch } from '@/lib/api/query-language';
import type { ContentGroup, ContentGroupMove } from '@/server/modules/content-groups/content-groups.schemas';

export type { ContentGroup } from '@/server/modules/content-groups/content-groups.schemas';

const FOLDER_FIELDS = 'name,parentId,isTemplateGroup,contentGroupPath,contentCount,simpleLoopCount';

/** The content folders of the selected tenant: one level at a time (the tree opens them lazily). */
const contentFolders = defineFolderResource({
  item: as<ContentGroup>(),
  key: 'contentGroups',
  list: '/api/v2/contentGroup',
  levelQuery: (level: FolderLevel) => ({ search: toSearch(term('parentId', '=', level.parentId ?? NULL)), select: FOLDER_FIELDS }),
  detail: '/api/v2/contentGroup/{id}',
  teamCapable: true,
  // The content list shows folder names and counts.
  items: ['content'],
  create: (input: { parentGroupId: string; name: string }, { customerId }) =>
    ok(
      api.POST('/api/contentGroup', {
        params: { query: { parentGroupId: input.parentGroupId, ...tenantQuery(customerId) } },
        body: { name: input.name, deviceContentType: 'content' },
      }),
      as<ContentGroup>(),
    ),
  rename: (input: { id: string; name: string }, { customerId }) =>
    ok(
      api.PUT('/api/contentGroup/{id}', { params: { path: { id: input.id }, query: tenantQuery(customerId) }, body: { name: input.name } }),
      as<ContentGroup>(),
    ),
  move: (input: ContentGroupMove, { customerId }) =>
    ok(api.POST('/api/contentGroup/move', { params: { query: tenantQuery(customerId) }, body: input })),
  remove: (input: { id: string; removeContents: boolean }, { customerId }) =>
    ok(
      api.DELETE('/api/contentGroup/{id}', {
        params: { path: { id: input.id }, query: { removeContents: input.removeContents, ...tenantQuery(customerId) } },
      }),
    ),
});

export const contentGroupResource = contentFolders.resource;

/** The tenant's root content folder (created with the tenant; it has no name). */
export const useContentRoot = () => contentFolders.useRoot({});

/** The sub-folders of one folder, by name (at most 500: a tree level larger than that is not browsed here). */
export const useContentGroupChildren = (parentId: string | undefined) => contentFolders.useChildren(parentId, {});

export const useCreateContentGroup = contentFolders.useCreate;
export const useRenameContentGroup = contentFolders.useRename;
export const useDeleteContentGroup = contentFolders.useDelete;
export const useMoveToContentGroup = contentFolders.useMove;

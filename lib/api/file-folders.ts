'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { fileKeys } from '@/lib/api/files';
import { defineFolderResource, type FolderLevel } from '@/lib/api/folder-resource';
import { and, NULL, term, toSearch } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { FileFolder, MoveBatch as MoveBatchBody } from '@/server/modules/file-folders/file-folders.schemas';

export type { FileFolder } from '@/server/modules/file-folders/file-folders.schemas';

/** Stored folders (type 1); filtered folders (type 2) follow a quick filter and take no files. */
const STORED = 1;
export const FILTERED_FOLDER = 2;
const FOLDER_FIELDS = 'name,parentId,fileFolderType,fileCount,firstFileThumbnail,quickFilterId';

/** One level of the file folder tree: stored folders, and with `includeFiltered` the filtered ones too. */
type FileFolderLevel = FolderLevel & { includeFiltered: boolean };

/** The file folders of the selected tenant: one level at a time (the tree opens them lazily). */
const fileFolders = defineFolderResource({
  item: as<FileFolder>(),
  key: 'fileFolders',
  list: '/api/v2/fileFolder',
  levelQuery: (level: FileFolderLevel) => ({
    search: toSearch(
      and(term('parentId', '=', level.parentId ?? NULL), level.includeFiltered ? null : term('fileFolderType', '=', STORED)),
    ),
    select: FOLDER_FIELDS,
    includeReadOnlyInfo: level.parentId === null ? undefined : true,
  }),
  detail: '/api/v2/fileFolder/{id}',
  teamCapable: true,
  // The root has no name and nothing in it the media page shows changes.
  rootStaleTime: 5 * 60_000,
  // Files show their folder; deleting a folder deletes its files.
  items: fileKeys.all,
  create: ({ parentId, name }: { parentId: string; name: string }, { customerId }) =>
    ok(api.POST('/api/fileFolder', { params: { query: { parentId, name, ...tenantQuery(customerId) } } }), as<FileFolder>()),
  rename: ({ id, name }: { id: string; name: string }, { customerId }) =>
    ok(
      api.POST('/api/fileFolder/rename', { params: { query: { folderId: id, newName: name, ...tenantQuery(customerId) } } }),
      as<FileFolder>(),
    ),
  move: ({ targetFolderId, fileIds, folderIds }: MoveBatch, { customerId }) =>
    ok(
      api.POST('/api/fileFolder/moveBatchToFolder', {
        params: { query: tenantQuery(customerId) },
        body: { targetFolder: { id: targetFolderId }, fileIds, folderIds } satisfies MoveBatchBody,
      }),
    ),
  remove: ({ id, removeFromPlaylists }: { id: string; removeFromPlaylists: boolean }, { customerId }) =>
    ok(api.DELETE('/api/fileFolder/{id}', { params: { path: { id }, query: { removeFromPlaylists, ...tenantQuery(customerId) } } })),
});

const folderResource = fileFolders.resource;

/** The tenant's stored root folder (created with the tenant; it has no name). */
export const useRootFolder = () => fileFolders.useRoot({ includeFiltered: false });

/**
 * The folders directly inside `parentId`, by name (the tree loads one level at a time): stored folders,
 * and with `includeFiltered` the filtered ones too (the tree shows them; places that take files do not).
 */
export function useFolderChildren(
  parentId: string | null | undefined,
  { enabled = true, includeFiltered = false }: { enabled?: boolean; includeFiltered?: boolean } = {},
) {
  return fileFolders.useChildren(parentId, { includeFiltered }, { enabled });
}

/**
 * Which of `folderIds` have child folders (the tree shows no expand arrow on the others): one list of their
 * children's `parentId`s. With more than 1 000 children in all (`complete` false), a folder not among
 * `parentIds` may still have some.
 */
export function useFoldersWithChildren(folderIds: readonly string[], { includeFiltered = false }: { includeFiltered?: boolean } = {}) {
  const customerId = folderResource.useScope();
  const teamReads = useTeamReads();
  const ids = [...folderIds].sort();

  return useQuery({
    queryKey: [...folderResource.keys.all, 'with-children', { customerId, ids, includeFiltered, ...teamReads.params }] as const,
    queryFn: async ({ signal }) => {
      const page = await ok(
        api.GET('/api/v2/fileFolder', {
          params: {
            query: {
              page: 0,
              size: 1000,
              sort: ['parentId,asc'],
              search: toSearch(and(term('parentId', '∈', ids), includeFiltered ? null : term('fileFolderType', '=', STORED))),
              select: 'parentId',
              ...teamReads.params,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
      );

      return { parentIds: [...new Set(page.content.map((f) => f.parentId ?? ''))], complete: page.content.length >= page.totalElements };
    },
    enabled: ids.length > 0 && teamReads.ready,
    staleTime: 30_000,
  });
}

/** Root … folder, for the breadcrumb: a read of one folder (a delete marks it stale without reading a folder that is gone). */
export function useBreadcrumb(folderId: string | null | undefined) {
  const customerId = folderResource.useScope();

  return useQuery({
    queryKey: [...folderResource.keys.detail(customerId, folderId ?? ''), 'breadcrumb'] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/fileFolder/breadcrumb', { params: { query: { folderId: folderId!, ...tenantQuery(customerId) } }, signal }),
        as<{ fileFolders: FileFolder[] }>(),
      ).then((r) => r.fileFolders),
    enabled: Boolean(folderId),
  });
}

export function useStorageStatistics() {
  const customerId = folderResource.useScope();

  return useQuery({
    queryKey: [...folderResource.keys.all, 'statistics', { customerId }] as const,
    queryFn: ({ signal }) => ok(api.GET('/api/fileFolder/storageStatistics', { params: { query: tenantQuery(customerId) }, signal })),
  });
}

export const useCreateFolder = fileFolders.useCreate;
export const useRenameFolder = fileFolders.useRename;

type MoveBatch = { targetFolderId: string; fileIds: string[]; folderIds: string[] };

export const useMoveToFolder = fileFolders.useMove;
export const useDeleteFolder = fileFolders.useDelete;

/** Deletes files and folders (with everything below them) at once. */
export function useDeleteBatch() {
  return fileFolders.useChange(
    (
      { fileIds, folderIds, removeFromPlaylists }: { fileIds: string[]; folderIds: string[]; removeFromPlaylists: boolean },
      { customerId },
    ) =>
      ok(
        api.POST('/api/fileFolder/deleteBatch', {
          params: { query: { removeFromPlaylists, ...tenantQuery(customerId) } },
          body: { fileIds, folderIds },
        }),
      ),
    { deletes: true },
  );
}

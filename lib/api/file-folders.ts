'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { fileKeys, isFileDetailKey } from '@/lib/api/files';
import { and, NULL, term, toSearch } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';

export type FileFolder = {
  id: string;
  name?: string | null;
  parentId?: string | null;
  customerId?: number;
  fileFolderType?: number;
  /** Folder ids from the root down to this folder, joined by `/` (spec 2: a string). */
  fileFolderPath?: string;
  fileCount?: number;
  firstFileThumbnail?: string | null;
  readOnly?: boolean;
  cleanupOutdatedFiles?: boolean;
  /** Filtered folders (type 2): the FILE quick filter whose files they show. */
  quickFilterId?: string | null;
};

export type StorageStatistics = {
  totalAvailableStorageSize: number;
  totalUsedStorageSize: number;
  usedDatasourceResourceStorageSize?: number;
  usedUploadedFileStorageSize?: number;
};

/** Stored folders (type 1); filtered folders (type 2) follow a quick filter and take no files. */
const STORED = 1;
export const FILTERED_FOLDER = 2;
const FOLDER_FIELDS = 'name,parentId,fileFolderType,fileCount,firstFileThumbnail,quickFilterId';

const folderKeys = {
  all: ['fileFolders'] as const,
  root: (customerId: number | undefined) => [...folderKeys.all, 'root', { customerId }] as const,
  children: (customerId: number | undefined, parentId: string) => [...folderKeys.all, 'children', { customerId, parentId }] as const,
  breadcrumb: (customerId: number | undefined, folderId: string) => [...folderKeys.all, 'breadcrumb', { customerId, folderId }] as const,
  statistics: (customerId: number | undefined) => [...folderKeys.all, 'statistics', { customerId }] as const,
};

/** The tenant's stored root folder (created with the tenant; it has no name). */
export function useRootFolder() {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: folderKeys.root(customerId),
    queryFn: async ({ signal }) => {
      const page = await apiFetch<Page<FileFolder>>('/api/v2/fileFolder', {
        query: { page: 0, size: 1, search: toSearch(and(term('parentId', '=', NULL), term('fileFolderType', '=', STORED))), select: FOLDER_FIELDS },
        customerId,
        signal,
      });

      return page.content[0] ?? null;
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * The folders directly inside `parentId`, by name (the tree loads one level at a time): stored folders,
 * and with `includeFiltered` the filtered ones too (the tree shows them; places that take files do not).
 */
export function useFolderChildren(parentId: string | null | undefined, { enabled = true, includeFiltered = false }: { enabled?: boolean; includeFiltered?: boolean } = {}) {
  const { customerId } = useTenant();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...folderKeys.children(customerId, parentId ?? ''), { includeFiltered, ...teamReads.params }],
    queryFn: ({ signal }) =>
      apiFetch<Page<FileFolder>>('/api/v2/fileFolder', {
        query: {
          page: 0,
          size: 500,
          sort: 'name,asc',
          search: toSearch(and(term('parentId', '=', parentId!), includeFiltered ? null : term('fileFolderType', '=', STORED))),
          select: FOLDER_FIELDS,
          includeReadOnlyInfo: true,
          ...teamReads.params,
        },
        customerId,
        signal,
      }),
    enabled: Boolean(parentId) && enabled && teamReads.ready,
  });
}

/**
 * Which of `folderIds` have child folders (the tree shows no expand arrow on the others): one list of their
 * children's `parentId`s. With more than 1 000 children in all (`complete` false), a folder not among
 * `parentIds` may still have some.
 */
export function useFoldersWithChildren(folderIds: readonly string[], { includeFiltered = false }: { includeFiltered?: boolean } = {}) {
  const { customerId } = useTenant();
  const teamReads = useTeamReads();
  const ids = [...folderIds].sort();

  return useQuery({
    queryKey: [...folderKeys.all, 'with-children', { customerId, ids, includeFiltered, ...teamReads.params }] as const,
    queryFn: async ({ signal }) => {
      const page = await apiFetch<Page<Pick<FileFolder, 'id' | 'parentId'>>>('/api/v2/fileFolder', {
        query: {
          page: 0,
          size: 1000,
          sort: 'parentId,asc',
          search: toSearch(and(term('parentId', '∈', ids), includeFiltered ? null : term('fileFolderType', '=', STORED))),
          select: 'parentId',
          ...teamReads.params,
        },
        customerId,
        signal,
      });

      return { parentIds: [...new Set(page.content.map((f) => f.parentId ?? ''))], complete: page.content.length >= page.totalElements };
    },
    enabled: ids.length > 0 && teamReads.ready,
    staleTime: 30_000,
  });
}

/** Root … folder, for the breadcrumb. */
export function useBreadcrumb(folderId: string | null | undefined) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: folderKeys.breadcrumb(customerId, folderId ?? ''),
    queryFn: ({ signal }) =>
      apiFetch<{ fileFolders: FileFolder[] }>('/api/fileFolder/breadcrumb', { query: { folderId }, customerId, signal }).then((r) => r.fileFolders),
    enabled: Boolean(folderId),
  });
}

export function useStorageStatistics() {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: folderKeys.statistics(customerId),
    queryFn: ({ signal }) => apiFetch<StorageStatistics>('/api/fileFolder/storageStatistics', { customerId, signal }),
  });
}

function useInvalidateMedia() {
  const queryClient = useQueryClient();

  return () => Promise.all([queryClient.invalidateQueries({ queryKey: folderKeys.all }), queryClient.invalidateQueries({ queryKey: fileKeys.all })]);
}

/**
 * After a delete: breadcrumbs and single-file reads are only marked stale, since the open ones may be of a
 * folder or file that is gone (404).
 */
function useInvalidateAfterDelete() {
  const queryClient = useQueryClient();
  const isBreadcrumb = (key: readonly unknown[]) => key[0] === folderKeys.all[0] && key[1] === 'breadcrumb';

  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: folderKeys.all, predicate: (q) => !isBreadcrumb(q.queryKey) }),
      queryClient.invalidateQueries({ queryKey: folderKeys.all, predicate: (q) => isBreadcrumb(q.queryKey), refetchType: 'none' }),
      queryClient.invalidateQueries({ queryKey: fileKeys.all, predicate: (q) => !isFileDetailKey(q.queryKey) }),
      queryClient.invalidateQueries({ queryKey: fileKeys.all, predicate: (q) => isFileDetailKey(q.queryKey), refetchType: 'none' }),
    ]);
}

export function useCreateFolder() {
  const invalidate = useInvalidateMedia();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ parentId, name }: { parentId: string; name: string }) =>
      apiFetch<FileFolder>('/api/fileFolder/', { method: 'POST', query: { parentId, name }, customerId }),
    onSuccess: () => invalidate(),
  });
}

export function useRenameFolder() {
  const invalidate = useInvalidateMedia();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiFetch<FileFolder>('/api/fileFolder/rename', { method: 'POST', query: { folderId: id, newName: name }, customerId }),
    onSuccess: () => invalidate(),
  });
}

export type MoveBatch = { targetFolderId: string; fileIds: string[]; folderIds: string[] };

export function useMoveToFolder() {
  const invalidate = useInvalidateMedia();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ targetFolderId, fileIds, folderIds }: MoveBatch) =>
      apiFetch<FileFolder>('/api/fileFolder/moveBatchToFolder', {
        method: 'POST',
        body: { targetFolder: { id: targetFolderId }, fileIds, folderIds },
        customerId,
      }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteFolder() {
  const invalidate = useInvalidateAfterDelete();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ id, removeFromPlaylists }: { id: string; removeFromPlaylists: boolean }) =>
      apiFetch<void>(`/api/fileFolder/${encodeURIComponent(id)}`, { method: 'DELETE', query: { removeFromPlaylists }, customerId }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteBatch() {
  const invalidate = useInvalidateAfterDelete();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ fileIds, folderIds, removeFromPlaylists }: { fileIds: string[]; folderIds: string[]; removeFromPlaylists: boolean }) =>
      apiFetch<void>('/api/fileFolder/deleteBatch', { method: 'POST', query: { removeFromPlaylists }, body: { fileIds, folderIds }, customerId }),
    onSuccess: () => invalidate(),
  });
}

'use client';

import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { contentFromWire, type PlaylistData, type PlaylistItem } from '@/lib/api/content';
import type { MediaFile as FileEntity } from '@/lib/api/files';
import { term, toSearch } from '@/lib/api/query-language';
import type { Page } from '@/lib/api/types';
import type { DeviceContent as WireDeviceContent } from '@/server/modules/content/content.schemas';
import type { FileFolder } from '@/server/modules/file-folders/file-folders.schemas';
import type { MediaFile, Resolver } from '@/lib/player/timeline';
import { useTeamReads } from '@/lib/api/team-reads';
import { useTenant } from '@/lib/tenant/tenant-context';

/*
 * What a playlist's items point at, loaded for the editor and its preview: the files (names, thumbnails,
 * download paths), the files of referenced folders and the embedded slides and playlists (with their
 * documents, one level deep). Each is one list request by ids; the preview resolves through `resolverOf`.
 * The content library's grid loads the same for its cards (slides, and the first item of each playlist).
 */

const FILE_FIELDS = 'name,contentType,location,thumbnail,validFrom,validTo,metaData';
const FOLDER_FILE_LIMIT = 200;

export type ReferencedFile = Pick<
  FileEntity,
  'id' | 'name' | 'contentType' | 'location' | 'thumbnail' | 'validFrom' | 'validTo' | 'metaData'
>;

/** The files, file folders and content a list of playlist items points at (each sorted, once). */
export type ReferenceIds = { fileIds: string[]; folderIds: string[]; contentIds: string[] };

export function referenceIdsOf(items: ReadonlyArray<Pick<PlaylistItem, 'type' | 'id'>>): ReferenceIds {
  const idsOf = (types: readonly string[]) => [...new Set(items.filter((s) => types.includes(s.type)).map((s) => s.id))].sort();

  return { fileIds: idsOf(['FILE']), folderIds: idsOf(['FILE_FOLDER']), contentIds: idsOf(['CONTENT', 'SIMPLE_LOOP']) };
}

export function usePlaylistReferences(data: PlaylistData | undefined) {
  return useReferences(referenceIdsOf(data?.slides ?? []));
}

/**
 * What `ids` name: files, folders (with their first file's thumbnail), content with its document and, unless
 * `folderFiles` is false (a preview needs only the folder's thumbnail), the files of each folder.
 */
export function useReferences({ fileIds, folderIds, contentIds }: ReferenceIds, { folderFiles = true }: { folderFiles?: boolean } = {}) {
  const { customerId } = useTenant();
  // The caller's team read parameters, as on every list of team-capable resources (lib/api/team-reads.ts).
  const { params: teamParams, ready } = useTeamReads();
  const files = useQuery({
    queryKey: ['files', 'list', 'by-ids', { customerId, fileIds, ...teamParams }],
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/file', {
          params: {
            query: {
              size: Math.max(1, fileIds.length),
              search: toSearch(term('id', '∈', fileIds)),
              select: FILE_FIELDS,
              ...teamParams,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<ReferencedFile>>(),
      ),
    enabled: ready && fileIds.length > 0,
    placeholderData: keepPreviousData,
  });
  const folders = useQueries({
    queries: (folderFiles ? folderIds : []).map((folderId) => ({
      queryKey: ['files', 'list', 'in-folder', { customerId, folderId, ...teamParams }],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        ok(
          api.GET('/api/v2/file', {
            params: {
              query: {
                size: FOLDER_FILE_LIMIT,
                sort: 'name,asc',
                search: toSearch(term('fileFolderId', '=', folderId)),
                select: FILE_FIELDS,
                ...teamParams,
                ...tenantQuery(customerId),
              },
            },
            signal,
          }),
          as<Page<ReferencedFile>>(),
        ),
      enabled: ready,
    })),
  });
  const folderNames = useQuery({
    queryKey: ['fileFolders', 'by-ids', { customerId, folderIds, ...teamParams }],
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/fileFolder', {
          params: {
            query: {
              size: Math.max(1, folderIds.length),
              search: toSearch(term('id', '∈', folderIds)),
              select: 'name,firstFileThumbnail',
              ...teamParams,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<Pick<FileFolder, 'id' | 'name' | 'firstFileThumbnail'>>>(),
      ),
    enabled: ready && folderIds.length > 0,
    placeholderData: keepPreviousData,
  });
  const contents = useQuery({
    queryKey: ['content', 'list', 'by-ids', { customerId, contentIds, ...teamParams }],
    queryFn: async ({ signal }) => {
      const page = await ok(
        api.GET('/api/v2/deviceContent', {
          params: {
            query: {
              size: Math.max(1, contentIds.length),
              search: toSearch(term('id', '∈', contentIds)),
              select: 'name,deviceContentType,structureType,data',
              ...teamParams,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<Pick<WireDeviceContent, 'id' | 'name' | 'deviceContentType' | 'structureType' | 'data'>>>(),
      );

      return { ...page, content: page.content.map(contentFromWire) };
    },
    enabled: ready && contentIds.length > 0,
    placeholderData: keepPreviousData,
  });

  return {
    files: new Map((files.data?.content ?? []).map((f) => [f.id, f])),
    folderFiles: new Map(folderIds.map((id, i) => [id, folders[i]?.data?.content ?? []])),
    folderNames: new Map((folderNames.data?.content ?? []).map((f) => [f.id, f.name ?? 'Folder'])),
    folderThumbnails: new Map((folderNames.data?.content ?? []).map((f) => [f.id, f.firstFileThumbnail ?? undefined])),
    contents: new Map((contents.data?.content ?? []).map((c) => [c.id, c])),
    isLoading: files.isFetching || contents.isFetching || folders.some((f) => f.isFetching),
  };
}

/** A file as the player needs it: the console's download path; a video's length when its metadata has it. */
function playerFile(file: ReferencedFile): MediaFile {
  const seconds = Number((file.metaData as Record<string, unknown> | undefined)?.duration);

  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType ?? 'application/octet-stream',
    url: file.location ?? '',
    durationMs: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : undefined,
    validFrom: file.validFrom,
    validTo: file.validTo,
  };
}

export type References = ReturnType<typeof useReferences>;

export function resolverOf(refs: References, now = Date.now()): Resolver {
  return {
    now,
    file: (id) => {
      const file = refs.files.get(id);

      return file ? playerFile(file) : undefined;
    },
    folder: (id) => (refs.folderFiles.get(id) ?? []).map(playerFile),
    content: (id) => {
      const item = refs.contents.get(id);

      return item && item.deviceContentType
        ? { id: item.id, name: item.name, deviceContentType: item.deviceContentType, data: item.data }
        : undefined;
    },
  };
}

'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, NULL, or, term, toSearch, type Expr } from '@/lib/api/query-language';
import type { Page } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { FileSchema } from '@/server/modules/files/files.schemas';

export type MediaFile = z.infer<typeof FileSchema>;

export type UsageEntry = Record<string, unknown>;

export const FILE_TYPES = [
  { value: 'image', label: 'Images' },
  { value: 'video', label: 'Videos' },
  { value: 'audio', label: 'Audio' },
  { value: 'pdf', label: 'PDF documents' },
  { value: 'font', label: 'Fonts' },
  { value: 'json', label: 'JSON data' },
] as const;
export type FileType = (typeof FILE_TYPES)[number]['value'];

export const ORIENTATIONS = ['landscape', 'portrait', 'square'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

export const VALIDITY_FILTERS = [
  { value: 'valid', label: 'Valid now' },
  { value: 'expired', label: 'Expired' },
  { value: 'upcoming', label: 'Not yet valid' },
  { value: 'unlimited', label: 'No validity set' },
] as const;
export type ValidityFilter = (typeof VALIDITY_FILTERS)[number]['value'];

/** What the media library filters by; every part is optional. */
export type FileFilters = {
  folderId?: string;
  /** Also files in subfolders of `folderId`. */
  recursive?: boolean;
  /** Plain words, each matched against the name (contains, ignoring case) or a tag (equals). */
  text?: string;
  type?: FileType;
  orientation?: Orientation;
  tags?: string[];
  validity?: ValidityFilter;
};

export function kindOf(contentType: string | undefined, name = ''): FileType | 'other' {
  const type = contentType ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || name.toLowerCase().endsWith('.pdf')) return 'pdf';
  if (type.startsWith('font/') || /\.(ttf|otf|woff2?)$/i.test(name)) return 'font';
  if (type === 'application/json' || name.toLowerCase().endsWith('.json')) return 'json';

  return 'other';
}

function typeExpr(type: FileType): Expr {
  switch (type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'font':
      return term('contentType', '^', `${type}/`);
    case 'pdf':
      return term('contentType', '=', 'application/pdf');
    case 'json':
      return term('contentType', '=', 'application/json');
  }
}

function validityExpr(validity: ValidityFilter, now: number): Expr {
  switch (validity) {
    case 'valid':
      return and(or(term('validFrom', '=', NULL), term('validFrom', '≤', now)), or(term('validTo', '=', NULL), term('validTo', '≥', now)));
    case 'expired':
      return term('validTo', '<', now);
    case 'upcoming':
      return term('validFrom', '>', now);
    case 'unlimited':
      return and(term('validFrom', '=', NULL), term('validTo', '=', NULL));
  }
}

export function textExpr(text: string | undefined): Expr | null {
  const words = (text ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;

  return and(...words.map((w) => or(term('name', CONTAINS_IGNORING_CASE, w), term('tags', ':', w))));
}

/** The filters without the folder: what a quick filter stores as its `search`. */
export function filterExpr(filters: FileFilters, now = Date.now()): Expr | null {
  const parts = [
    textExpr(filters.text),
    filters.type ? typeExpr(filters.type) : null,
    filters.orientation ? term('orientation', '=', filters.orientation) : null,
    filters.tags?.length ? term('tags', '∈', filters.tags) : null,
    filters.validity ? validityExpr(filters.validity, now) : null,
  ];
  const expr = and(...parts);

  return expr.text ? expr : null;
}

export function folderExpr(folderId: string | undefined, recursive = false): Expr | null {
  if (!folderId) return null;

  return recursive ? term('fileFolderPath', ':', folderId) : term('fileFolderId', '=', folderId);
}

/** The `search` of the file list for these filters. */
export function fileSearch(filters: FileFilters, now = Date.now()): string | undefined {
  return toSearch(and(folderExpr(filters.folderId, filters.recursive), filterExpr(filters, now)));
}

/** `id∈a,b,c`: the selection as a search for the bulk endpoints. */
export function idsSearch(ids: readonly string[]): string {
  return term('id', '∈', ids).text;
}

export const FILE_LIST_FIELDS =
  'name,contentType,size,width,height,createDate,creatorEmail,fileFolderId,location,thumbnail,crcCheckSum,validFrom,validTo,tags,orientation,muted,lastPreviewUploadTime';
/** `readOnly` is not selectable: the list answers it with `includeReadOnlyInfo`, the single read always. */
export const FILE_USAGE_FIELDS = 'usageDetails,campaignUsageDetails,topLevelCampaignUsageDetails,messageUsageDetails';
export const FILE_DETAIL_FIELDS = `${FILE_LIST_FIELDS},creator(email,name),metaData,fileFolderPath,${FILE_USAGE_FIELDS},duplicateDetails`;

export type FileListParams = { page: number; size: number; sort: string; filters: FileFilters; quickFilterId?: string };

export const fileKeys = {
  all: ['files'] as const,
  lists: () => [...fileKeys.all, 'list'] as const,
  list: (customerId: number | undefined, params: FileListParams) => [...fileKeys.lists(), { customerId, ...params }] as const,
  detail: (customerId: number | undefined, id: string) => [...fileKeys.all, 'detail', { customerId, id }] as const,
};

export function useFiles(params: FileListParams, { enabled = true }: { enabled?: boolean } = {}) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: fileKeys.list(customerId, params),
    queryFn: ({ signal }) =>
      apiFetch<Page<MediaFile>>('/api/v2/file', {
        query: {
          page: params.page,
          size: params.size,
          sort: params.sort,
          search: fileSearch(params.filters),
          select: FILE_LIST_FIELDS,
          quickFilterId: params.quickFilterId,
          includeReadOnlyInfo: true,
        },
        customerId,
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** How many files lie anywhere below a folder: the spec's cheap count (one row, ids only, totalElements). */
export function useFilesBelowCount(folderId: string | null | undefined) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: [...fileKeys.lists(), 'count-below', { customerId, folderId }] as const,
    queryFn: ({ signal }) =>
      apiFetch<Page<MediaFile>>('/api/v2/file', { query: { page: 0, size: 1, select: 'id', search: folderExpr(folderId!, true)!.text }, customerId, signal }).then(
        (page) => page.totalElements,
      ),
    enabled: Boolean(folderId),
  });
}

export function fetchFile(id: string, customerId: number | undefined, select = FILE_DETAIL_FIELDS, signal?: AbortSignal) {
  return apiFetch<MediaFile>(`/api/v2/file/${encodeURIComponent(id)}`, { query: { select }, customerId, signal });
}

export function useFile(id: string | null) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: fileKeys.detail(customerId, id ?? ''),
    queryFn: ({ signal }) => fetchFile(id!, customerId, FILE_DETAIL_FIELDS, signal),
    enabled: Boolean(id),
  });
}

/** Files with the given CRC32 (the duplicate check before an upload). */
export function findFilesByChecksum(crc: string, customerId: number | undefined) {
  return apiFetch<Page<MediaFile>>('/api/v2/file', {
    query: { page: 0, size: 5, search: term('crcCheckSum', '=', crc).text, select: 'name,fileFolderId,size' },
    customerId,
  });
}

/** Files with the same name and size: the duplicate check for files too large to checksum in the browser. */
export function findFilesByNameAndSize(name: string, size: number, customerId: number | undefined) {
  return apiFetch<Page<MediaFile>>('/api/v2/file', {
    query: { page: 0, size: 5, search: and(term('name', '=', name), term('size', '=', size)).text, select: 'name,fileFolderId,size' },
    customerId,
  });
}

/** The files of a selection with what the deletion preflight needs. */
export function fetchFilesForPreflight(ids: readonly string[], customerId: number | undefined) {
  return apiFetch<Page<MediaFile>>('/api/v2/file', {
    query: { page: 0, size: ids.length, search: idsSearch(ids), select: `name,${FILE_USAGE_FIELDS}`, includeReadOnlyInfo: true },
    customerId,
  });
}

export type FileUpdate = Partial<{ name: string; validFrom: number | null; validTo: number | null; tags: string[]; metaData: Record<string, unknown>; muted: boolean }>;

function useInvalidateFiles() {
  const queryClient = useQueryClient();

  return () => Promise.all([queryClient.invalidateQueries({ queryKey: fileKeys.all }), queryClient.invalidateQueries({ queryKey: ['fileFolders'] }), queryClient.invalidateQueries({ queryKey: ['tags'] })]);
}

export function useUpdateFile() {
  const invalidate = useInvalidateFiles();

  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: FileUpdate }) =>
      apiFetch<MediaFile>(`/api/file/${encodeURIComponent(id)}`, { method: 'PUT', body: changes }),
    onSuccess: () => invalidate(),
  });
}

export function useRenameFile() {
  const invalidate = useInvalidateFiles();

  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiFetch<MediaFile>('/api/file/rename', { method: 'POST', query: { fileId: id, newName: name } }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteFile() {
  const invalidate = useInvalidateFiles();

  return useMutation({
    mutationFn: ({ id, removeFromPlaylists }: { id: string; removeFromPlaylists: boolean }) =>
      apiFetch<void>(`/api/file/${encodeURIComponent(id)}`, { method: 'DELETE', query: { removeFromPlaylists } }),
    onSuccess: () => invalidate(),
  });
}

export type TagVerb = 'add' | 'set' | 'remove';

/** Bulk tags on exactly the given files; never an empty search (which would mean every file). */
export function useBulkFileTags() {
  const invalidate = useInvalidateFiles();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ ids, verb, tags }: { ids: readonly string[]; verb: TagVerb; tags: string[] }) => {
      if (ids.length === 0) return Promise.resolve({ updated: 0 });

      return apiFetch<{ updated: number }>(`/api/v2/file/tags/${verb}`, { method: 'POST', query: { search: idsSearch(ids) }, body: tags, customerId });
    },
    onSuccess: () => invalidate(),
  });
}

export function useBulkFileValidity() {
  const invalidate = useInvalidateFiles();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: ({ ids, validFrom, validTo }: { ids: readonly string[]; validFrom: number | null; validTo: number | null }) => {
      if (ids.length === 0) return Promise.resolve({ updated: 0 });

      return apiFetch<{ updated: number }>('/api/v2/file/validity/set', {
        method: 'POST',
        query: { search: idsSearch(ids), validFrom, validTo },
        customerId,
      });
    },
    onSuccess: () => invalidate(),
  });
}

export function useInvalidateMedia() {
  return useInvalidateFiles();
}

/** The storage paths answer the bytes; the session cookie authenticates `<img>`, `<video>` and `<a>`. */
export function thumbnailUrl(file: Pick<MediaFile, 'thumbnail' | 'lastPreviewUploadTime'>): string | null {
  if (!file.thumbnail) return null;

  return file.lastPreviewUploadTime ? `${file.thumbnail}?v=${file.lastPreviewUploadTime}` : file.thumbnail;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }

  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

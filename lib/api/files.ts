'use client';

import type { z } from 'zod';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, NULL, or, term, toSearch, type Expr } from '@/lib/api/query-language';
import type { QuickFilterCriteria } from '@/lib/api/quick-filters';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Page } from '@/lib/api/types';
import type { FileSchema, FileUpdate } from '@/server/modules/files/files.schemas';

export type MediaFile = z.infer<typeof FileSchema>;

/** One user of a file (a content, a channel, a schedule, a sub-channel) in its usage details: the document says no more of it. */
export type UsageEntry = NonNullable<MediaFile['campaignUsageDetails']>[number];

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

/** A FILE quick filter's criteria as the media library's controls show them. */
export type QuickFilterView = {
  filters: Pick<FileFilters, 'text' | 'type' | 'orientation' | 'tags' | 'validity'>;
  folderId?: string;
  recursive: boolean;
  /** Criteria no control shows: a part of a search written through the API (as written), `name`, a validity rule. */
  other: QuickFilterExtra[];
};

/** A quick-filter criterion the controls cannot show; the toolbar words it (`media.toolbar.extra.*`). */
export type QuickFilterExtra =
  { kind: 'search'; text: string } | { kind: 'nameContains'; name: string } | { kind: 'validNow' } | { kind: 'validNowWithSet' };

/** Splits a search at its top-level `,` (AND); parentheses group. */
function andParts(search: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < search.length; i++) {
    const c = search[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      parts.push(search.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(search.slice(start));

  return parts.filter(Boolean);
}

function decodeOnce(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** One AND part of a search the console built (filterExpr), or null: each candidate is rebuilt and compared. */
function decodePart(part: string): Partial<QuickFilterView['filters']> | null {
  const type = FILE_TYPES.find((t) => typeExpr(t.value).text === part);
  if (type) return { type: type.value };
  const orientation = ORIENTATIONS.find((o) => term('orientation', '=', o).text === part);
  if (orientation) return { orientation };
  // Saved with the time of saving (see the media library's "Save as quick filter").
  if (/^validTo<\d+$/.test(part)) return { validity: 'expired' };
  if (/^validFrom>\d+$/.test(part)) return { validity: 'upcoming' };
  if (part.startsWith('tags∈')) {
    const tags = decodeOnce(part.slice('tags∈'.length))?.split(',').filter(Boolean) ?? [];
    if (tags.length && term('tags', '∈', tags).text === part) return { tags };
  }
  // A plain word matches the name or a tag; its tag term ends the part.
  const word = /\|tags:([^|,()]*)$/.exec(part)?.[1];
  const decoded = word === undefined ? null : decodeOnce(word);
  if (decoded && textExpr(decoded)?.text === part) return { text: decoded };

  return null;
}

/**
 * What a FILE quick filter means in the media library's terms, so an applied filter shows in the controls.
 * Searches the console saved decode exactly (each part is rebuilt and compared); anything else is `other`.
 */
export function quickFilterView(criteria: QuickFilterCriteria): QuickFilterView {
  // The folder and the validity switches are a FILE filter's.
  const file = criteria.type === 'FILE' ? criteria : null;
  const view: QuickFilterView = {
    filters: {},
    folderId: file?.folderId ?? undefined,
    recursive: Boolean(criteria.searchRecursively),
    other: [],
  };
  const words: string[] = [];
  const tags = [...(criteria.tags ?? [])];
  const parts = andParts(criteria.search ?? '');
  // "No validity set" is two AND parts of its own.
  const unlimited = andParts(validityExpr('unlimited', 0).text);
  if (unlimited.every((p) => parts.includes(p))) {
    view.filters.validity = 'unlimited';
    parts.splice(0, parts.length, ...parts.filter((p) => !unlimited.includes(p)));
  }
  for (const part of parts) {
    const decoded = decodePart(part);
    if (
      !decoded ||
      (decoded.type && view.filters.type) ||
      (decoded.orientation && view.filters.orientation) ||
      (decoded.validity && view.filters.validity)
    ) {
      view.other.push({ kind: 'search', text: decodeOnce(part) ?? part });
      continue;
    }
    if (decoded.text) words.push(decoded.text);
    if (decoded.tags) tags.push(...decoded.tags);
    if (decoded.type) view.filters.type = decoded.type;
    if (decoded.orientation) view.filters.orientation = decoded.orientation;
    if (decoded.validity) view.filters.validity = decoded.validity;
  }
  if (words.length) view.filters.text = words.join(' ');
  if (tags.length) view.filters.tags = [...new Set(tags)];
  if (criteria.name) view.other.push({ kind: 'nameContains', name: criteria.name });
  if (file?.validFileOnly) {
    if (file.isUndefinedValidityValid && !view.filters.validity) view.filters.validity = 'valid';
    else view.other.push({ kind: file.isUndefinedValidityValid ? 'validNow' : 'validNowWithSet' });
  }

  return view;
}

function folderExpr(folderId: string | undefined, recursive = false): Expr | null {
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

const FILE_LIST_FIELDS =
  'name,contentType,size,width,height,createDate,creatorEmail,fileFolderId,location,thumbnail,crcCheckSum,validFrom,validTo,tags,orientation,muted,lastPreviewUploadTime';
/** `readOnly` is not selectable: the list answers it with `includeReadOnlyInfo`, the single read always. */
const FILE_USAGE_FIELDS = 'usageDetails,campaignUsageDetails,topLevelCampaignUsageDetails,messageUsageDetails';
const FILE_DETAIL_FIELDS = `${FILE_LIST_FIELDS},creator(email,name),metaData,fileFolderPath,${FILE_USAGE_FIELDS},duplicateDetails`;

export type FileListParams = ListRequest & { filters: FileFilters; quickFilterId?: string };

/** The files of the selected tenant; a change also refreshes the folders (counts, sizes) and the tag lists. */
export const fileResource = defineResource({
  item: as<MediaFile>(),
  key: 'files',
  list: '/api/v2/file',
  listQuery: (params: FileListParams) => ({
    search: fileSearch(params.filters),
    select: FILE_LIST_FIELDS,
    quickFilterId: params.quickFilterId,
    includeReadOnlyInfo: true,
  }),
  detail: '/api/v2/file/{id}',
  teamCapable: true,
  invalidates: [['fileFolders'], ['tags']],
});

export const fileKeys = fileResource.keys;

export const useFiles = fileResource.useList;

/** How many files match `search` (the spec's cheap count). */
export const useFileCount = fileResource.useCount;

/** The `search` of the files of one type (the media library's type filter). */
export function fileTypeSearch(type: FileType): string {
  return typeExpr(type).text;
}

/** How many files lie anywhere below a folder: the spec's cheap count (one row, ids only, totalElements). */
export function useFilesBelowCount(folderId: string | null | undefined) {
  return useFileCount(folderId ? folderExpr(folderId, true)!.text : undefined, { enabled: Boolean(folderId) });
}

export function useFile(id: string | null) {
  return fileResource.useDetail(id, { select: FILE_DETAIL_FIELDS });
}

/** A page of the file list for one query (the duplicate checks and the deletion preflight, outside the cached lists). */
function readFiles(
  query: { page: number; size: number; search: string; select: string; includeReadOnlyInfo?: boolean },
  customerId: number | undefined,
) {
  return ok(api.GET('/api/v2/file', { params: { query: { ...query, ...tenantQuery(customerId) } } }), as<Page<MediaFile>>());
}

/** Files with the given CRC32 (the duplicate check before an upload). */
export function findFilesByChecksum(crc: string, customerId: number | undefined) {
  return readFiles({ page: 0, size: 5, search: term('crcCheckSum', '=', crc).text, select: 'name,fileFolderId,size' }, customerId);
}

/** Files with the same name and size: the duplicate check for files too large to checksum in the browser. */
export function findFilesByNameAndSize(name: string, size: number, customerId: number | undefined) {
  return readFiles(
    { page: 0, size: 5, search: and(term('name', '=', name), term('size', '=', size)).text, select: 'name,fileFolderId,size' },
    customerId,
  );
}

/** The files of a selection with what the deletion preflight needs. */
export function fetchFilesForPreflight(ids: readonly string[], customerId: number | undefined) {
  return readFiles(
    { page: 0, size: ids.length, search: idsSearch(ids), select: `name,${FILE_USAGE_FIELDS}`, includeReadOnlyInfo: true },
    customerId,
  );
}

export type { FileUpdate };

export function useUpdateFile() {
  return fileResource.useMutation(({ id, changes }: { id: string; changes: FileUpdate }) =>
    ok(api.PUT('/api/file/{fileId}', { params: { path: { fileId: id } }, body: changes }), as<MediaFile>()),
  );
}

export function useRenameFile() {
  return fileResource.useMutation(({ id, name }: { id: string; name: string }) =>
    ok(api.POST('/api/file/rename', { params: { query: { fileId: id, newName: name } } }), as<MediaFile>()),
  );
}

export function useDeleteFile() {
  return fileResource.useMutation(
    ({ id, removeFromPlaylists }: { id: string; removeFromPlaylists: boolean }) =>
      ok(api.DELETE('/api/file/{fileId}', { params: { path: { fileId: id }, query: { removeFromPlaylists } } })),
    { deletes: true },
  );
}

export type TagVerb = 'add' | 'set' | 'remove';

/** Bulk tags on exactly the given files; never an empty search (which would mean every file). */
export function useBulkFileTags() {
  return fileResource.useMutation(({ ids, verb, tags }: { ids: readonly string[]; verb: TagVerb; tags: string[] }, { customerId }) => {
    if (ids.length === 0) return Promise.resolve({ updated: 0 });

    return ok(
      api.POST(`/api/v2/file/tags/${verb}`, { params: { query: { search: idsSearch(ids), ...tenantQuery(customerId) } }, body: tags }),
    );
  });
}

export function useBulkFileValidity() {
  return fileResource.useMutation(
    ({ ids, validFrom, validTo }: { ids: readonly string[]; validFrom: number | null; validTo: number | null }, { customerId }) => {
      if (ids.length === 0) return Promise.resolve({ updated: 0 });

      // A bound left out is none (the query cannot carry a null).
      const bounds = { validFrom: validFrom ?? undefined, validTo: validTo ?? undefined };

      return ok(
        api.POST('/api/v2/file/validity/set', { params: { query: { search: idsSearch(ids), ...bounds, ...tenantQuery(customerId) } } }),
      );
    },
  );
}

/** Refreshes everything the media library shows (after an upload). */
export function useInvalidateMedia() {
  return fileResource.useInvalidate();
}

/**
 * The storage paths answer the bytes; the session cookie authenticates `<img>`, `<video>` and `<a>`. The
 * server's `thumbnail` already names the upload time (`?v=`), so a replaced thumbnail gets a new URL.
 */
export function thumbnailUrl(file: Pick<MediaFile, 'thumbnail'>): string | null {
  return file.thumbnail ?? null;
}

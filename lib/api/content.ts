'use client';

import { apiFetch } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Page } from '@/lib/api/types';
import type { PlaylistData, SlideData, SlideDocument } from '@/server/modules/content/content-data.schemas';
import type { DeviceContent as WireDeviceContent, Template } from '@/server/modules/content/content.schemas';
import { contentDataToWire, slideDataOf } from '@/server/modules/content/slide-document.schemas';

export type { Template } from '@/server/modules/content/content.schemas';

/**
 * An item as the console holds it: a slide's pages are the list the editors and the renderer work with, where
 * the API keys them by name (DECISIONS §2). `contentFromWire` converts every answer that carries `data`, and
 * `contentDataToWire` every document sent.
 */
export type DeviceContent = Omit<WireDeviceContent, 'data'> & { data?: PlaylistData | SlideData };

/** An item as the API answers it, its slide pages turned into the list (the item's kind says which document it is). */
export function contentFromWire<T extends { deviceContentType?: string; data?: unknown }>(item: T): Omit<T, 'data'> & { data?: PlaylistData | SlideData } {
  if (item.data == null) return item as Omit<T, 'data'>;

  return { ...item, data: item.deviceContentType === 'content' ? slideDataOf(item.data as SlideDocument) : (item.data as PlaylistData) };
}
export type { PlaylistData, PlaylistItem, SlideData } from '@/server/modules/content/content-data.schemas';
export { FIT_MODES } from '@/server/modules/content/content-data.schemas';

/** What the library lists: everything, playlists only, or slides and interactive content only. */
export const CONTENT_KINDS = ['all', 'playlists', 'slides'] as const;
export type ContentKindFilter = (typeof CONTENT_KINDS)[number];

export type ContentListParams = ListRequest & {
  text: string;
  kind: ContentKindFilter;
  folderId: string;
  /** The grid: each playlist's first item comes along for its card (`firstItem`, not the whole document). */
  withPreview?: boolean;
};

const LIST_FIELDS = 'name,customerId,deviceContentType,structureType,locked,tags,lastSaved,lastSavedBy,contentGroupId,orientation,comment';

/** Slides, interactive content and playlists of the selected tenant (`/api/v2/deviceContent`). */
export const contentResource = defineResource<DeviceContent, ContentListParams>({
  key: 'content',
  listPath: '/api/v2/deviceContent',
  listQuery: (params) => ({
    search: toSearch(and(params.text.trim() ? term('name', CONTAINS_IGNORING_CASE, params.text.trim()) : null)),
    contentGroupId: params.folderId || undefined,
    includeLoops: params.kind !== 'slides',
    includeContents: params.kind !== 'playlists',
    select: params.withPreview ? `${LIST_FIELDS},firstItem` : LIST_FIELDS,
    // Items a read-only team assignment shows are marked, so their write controls are not offered.
    includeReadOnlyInfo: true,
  }),
  detailPath: (id) => `/api/v2/deviceContent/${encodeURIComponent(String(id))}`,
  fromWire: contentFromWire,
  teamCapable: true,
  // Folder counts change with the content in them; tag listings with its tags.
  invalidates: [['contentGroups'], ['tags']],
});

export type ContentPath = 'content' | 'simpleLoop';

function pathOf(item: Pick<DeviceContent, 'deviceContentType'>): ContentPath {
  return item.deviceContentType === 'simpleLoop' ? 'simpleLoop' : 'content';
}

/** An item's content type as the label table keys it (`labels.contentType`): a playlist, a slide or interactive content. */
export function contentTypeOf(item: Pick<DeviceContent, 'deviceContentType' | 'structureType'>): 'simpleLoop' | 'SLIDE' | 'COMPLEX' {
  return item.deviceContentType === 'simpleLoop' ? 'simpleLoop' : item.structureType === 'COMPLEX' ? 'COMPLEX' : 'SLIDE';
}

/** A new, empty playlist at a resolution. */
export function emptyPlaylist(width: number, height: number): PlaylistData {
  return { loopData: { resolution: { width, height }, defaultImageFit: 'contain', defaultVideoFit: 'contain', defaultDurationMs: 10_000 }, slides: [] };
}

export function useCreatePlaylist() {
  return contentResource.useMutation((input: { contentGroupId: string; name: string; data: PlaylistData }, { customerId }) =>
    apiFetch<DeviceContent>('/api/simpleLoop', {
      method: 'POST',
      query: { contentGroupId: input.contentGroupId },
      body: { name: input.name, simpleLoopType: 'NORMAL', version: '2.0', data: input.data },
      customerId,
    }),
  );
}

export function useCreateSlide() {
  return contentResource.useMutation(
    async (input: { contentGroupId: string; name: string; structureType: 'SLIDE' | 'COMPLEX'; data: SlideData }, { customerId }) =>
      contentFromWire(
        await apiFetch<WireDeviceContent>('/api/content', {
          method: 'POST',
          query: { contentGroupId: input.contentGroupId },
          body: { name: input.name, structureType: input.structureType, data: contentDataToWire(input.data) },
          customerId,
        }),
      ),
  );
}

export function useCreateFromTemplate() {
  return contentResource.useMutation((input: { templateId: string; contentGroupId: string; name: string }, { customerId }) =>
    apiFetch<DeviceContent>(`/api/content/fromTemplate/${encodeURIComponent(input.templateId)}`, {
      method: 'POST',
      query: { contentGroupId: input.contentGroupId },
      body: { name: input.name },
      customerId,
    }),
  );
}

export type ContentSave = { name?: string; comment?: string; resetComment?: boolean; data?: PlaylistData | SlideData };

export function useSaveContent() {
  return contentResource.useMutation((input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; changes: ContentSave; autoSave?: boolean }) =>
    apiFetch<WireDeviceContent>(`/api/${pathOf(input.item)}/${encodeURIComponent(input.item.id)}`, {
      method: 'PUT',
      query: { autoSave: input.autoSave || undefined },
      body: input.changes.data ? { ...input.changes, data: contentDataToWire(input.changes.data) } : input.changes,
    }).then(contentFromWire),
  );
}

export function useLockContent() {
  return contentResource.useMutation((input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; locked: boolean }) =>
    apiFetch<WireDeviceContent>(`/api/${pathOf(input.item)}/lock/${encodeURIComponent(input.item.id)}/${input.locked}`, { method: 'POST' }).then(contentFromWire),
  );
}

export function useDuplicateContent() {
  return contentResource.useMutation((input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; name: string }) =>
    apiFetch<WireDeviceContent | void>(`/api/${pathOf(input.item)}/duplicate/${encodeURIComponent(input.item.id)}`, { method: 'POST', body: { name: input.name } }).then((item) =>
      item ? contentFromWire(item) : undefined,
    ),
  );
}

/** Whether the caller may change an item: not locked, not shown through a read-only team. */
export function isWritable(item: Pick<DeviceContent, 'locked' | 'readOnly'>): boolean {
  return !item.locked && !item.readOnly;
}

export function useSetContentTags() {
  return contentResource.useMutation((input: { id: string; tags: string[] }) =>
    apiFetch<WireDeviceContent>(`/api/deviceContent/${encodeURIComponent(input.id)}/setTags`, { method: 'POST', body: input.tags }).then(contentFromWire),
  );
}

/** Bulk tags on exactly the given items (`search=id∈…`; never an empty search, which would mean every item). Locked items are left alone. */
export function useBulkContentTags() {
  return contentResource.useMutation(({ ids, verb, tags }: { ids: readonly string[]; verb: 'add' | 'remove'; tags: string[] }, { customerId }) => {
    if (ids.length === 0) return Promise.resolve({ updated: 0 });

    return apiFetch<{ updated: number }>(`/api/v2/deviceContent/tags/${verb}`, { method: 'POST', query: { search: term('id', '∈', ids).text }, body: tags, customerId });
  });
}

/** What deleting needs to know of the selected items: who embeds them, and whether they are locked or read-only. */
export type DeletionCheck = Pick<DeviceContent, 'id' | 'name' | 'deviceContentType' | 'structureType' | 'locked' | 'readOnly'> & { usageDetails?: Array<{ id?: string; name?: string }> };

export function fetchForDeletion(ids: readonly string[], customerId: number | undefined, signal?: AbortSignal) {
  return apiFetch<Page<DeletionCheck>>('/api/v2/deviceContent', {
    query: { size: ids.length, search: term('id', '∈', ids).text, select: 'name,deviceContentType,structureType,locked,usageDetails', includeReadOnlyInfo: true },
    customerId,
    signal,
  });
}

/**
 * Deletes the items one after the other, in the order given (embedders before what they embed: the API refuses
 * to delete embedded content). The lists are refreshed once at the end, also after a failure part-way.
 */
export function useDeleteContents() {
  const invalidate = contentResource.useInvalidate({ deleted: true });

  return async (items: ReadonlyArray<Pick<DeviceContent, 'id' | 'deviceContentType'>>, onProgress?: (done: number) => void) => {
    try {
      for (const [index, item] of items.entries()) {
        await apiFetch<void>(`/api/${pathOf(item)}/${encodeURIComponent(item.id)}`, { method: 'DELETE' });
        onProgress?.(index + 1);
      }
    } finally {
      await invalidate();
    }
  };
}

/** The starter templates (a handful: one page holds them all). */
export async function fetchTemplates(signal?: AbortSignal): Promise<Page<Template>> {
  return apiFetch<Page<Template>>('/api/template', { query: { size: 100 }, signal });
}

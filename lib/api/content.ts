'use client';

import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Page } from '@/lib/api/types';
import type { PlaylistData, SlideData, SlideDocument } from '@/server/modules/content/content-data.schemas';
import type { DeviceContent as WireDeviceContent, Template } from '@/server/modules/content/content.schemas';
import { contentDataToWire, isSlideData, slideDataOf } from '@/server/modules/content/slide-document.schemas';

export type { Template } from '@/server/modules/content/content.schemas';

/**
 * An item as the console holds it: a slide's pages are the list the editors and the renderer work with, where
 * the API keys them by name (DECISIONS §2). `contentFromWire` converts every answer that carries `data`, and
 * `contentDataToWire` every document sent.
 */
export type DeviceContent = Omit<WireDeviceContent, 'data'> & { data?: PlaylistData | SlideData };

/** An item as the API answers it, its slide pages turned into the list (the item's kind says which document it is). */
export function contentFromWire<T extends { deviceContentType?: string; data?: unknown }>(
  item: T,
): Omit<T, 'data'> & { data?: PlaylistData | SlideData } {
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
export const contentResource = defineResource({
  item: as<WireDeviceContent>(),
  key: 'content',
  list: '/api/v2/deviceContent',
  listQuery: (params: ContentListParams) => ({
    search: toSearch(and(params.text.trim() ? term('name', CONTAINS_IGNORING_CASE, params.text.trim()) : null)),
    contentGroupId: params.folderId || undefined,
    includeLoops: params.kind !== 'slides',
    includeContents: params.kind !== 'playlists',
    select: params.withPreview ? `${LIST_FIELDS},firstItem` : LIST_FIELDS,
    // Items a read-only team assignment shows are marked, so their write controls are not offered.
    includeReadOnlyInfo: true,
  }),
  detail: '/api/v2/deviceContent/{id}',
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
  return {
    loopData: { resolution: { width, height }, defaultImageFit: 'contain', defaultVideoFit: 'contain', defaultDurationMs: 10_000 },
    slides: [],
  };
}

export function useCreatePlaylist() {
  return contentResource.useMutation(async (input: { contentGroupId: string; name: string; data: PlaylistData }, { customerId }) =>
    contentFromWire(
      await ok(
        api.POST('/api/simpleLoop', {
          params: { query: { contentGroupId: input.contentGroupId, ...tenantQuery(customerId) } },
          body: { name: input.name, simpleLoopType: 'NORMAL', version: '2.0', data: input.data },
        }),
        as<WireDeviceContent>(),
      ),
    ),
  );
}

export function useCreateSlide() {
  return contentResource.useMutation(
    async (input: { contentGroupId: string; name: string; structureType: 'SLIDE' | 'COMPLEX'; data: SlideData }, { customerId }) =>
      contentFromWire(
        await ok(
          api.POST('/api/content', {
            params: { query: { contentGroupId: input.contentGroupId, ...tenantQuery(customerId) } },
            body: { name: input.name, structureType: input.structureType, data: contentDataToWire(input.data) },
          }),
          as<WireDeviceContent>(),
        ),
      ),
  );
}

export function useCreateFromTemplate() {
  return contentResource.useMutation(async (input: { templateId: string; contentGroupId: string; name: string }, { customerId }) =>
    contentFromWire(
      await ok(
        api.POST('/api/content/fromTemplate/{templateId}', {
          params: { path: { templateId: input.templateId }, query: { contentGroupId: input.contentGroupId, ...tenantQuery(customerId) } },
          body: { name: input.name },
        }),
        as<WireDeviceContent>(),
      ),
    ),
  );
}

export type ContentSave = { name?: string; comment?: string; resetComment?: boolean; data?: PlaylistData | SlideData };

/**
 * Saves an item by its kind's operation. The document says the kind too (a slide's is the page list, a playlist's
 * never is), so a save with a document goes by it, one without by the item's kind.
 */
function saveContent(
  item: Pick<DeviceContent, 'id' | 'deviceContentType'>,
  { data, ...fields }: ContentSave,
  autoSave: boolean | undefined,
) {
  const params = { path: { id: item.id }, query: { autoSave: autoSave || undefined } };
  if (isSlideData(data) || (data === undefined && pathOf(item) === 'content')) {
    return ok(
      api.PUT('/api/content/{id}', { params, body: { ...fields, data: data && contentDataToWire(data) } }),
      as<WireDeviceContent>(),
    );
  }

  return ok(api.PUT('/api/simpleLoop/{id}', { params, body: { ...fields, data } }), as<WireDeviceContent>());
}

export function useSaveContent() {
  return contentResource.useMutation(
    (input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; changes: ContentSave; autoSave?: boolean }) =>
      saveContent(input.item, input.changes, input.autoSave).then(contentFromWire),
  );
}

export function useLockContent() {
  return contentResource.useMutation((input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; locked: boolean }) => {
    const params = { path: { id: input.item.id, locked: input.locked ? ('true' as const) : ('false' as const) } };
    const call =
      pathOf(input.item) === 'simpleLoop'
        ? api.POST('/api/simpleLoop/lock/{id}/{locked}', { params })
        : api.POST('/api/content/lock/{id}/{locked}', { params });

    return ok(call, as<WireDeviceContent>()).then(contentFromWire);
  });
}

export function useDuplicateContent() {
  return contentResource.useMutation((input: { item: Pick<DeviceContent, 'id' | 'deviceContentType'>; name: string }) => {
    const init = { params: { path: { id: input.item.id } }, body: { name: input.name } };
    const call =
      pathOf(input.item) === 'simpleLoop'
        ? api.POST('/api/simpleLoop/duplicate/{id}', init)
        : api.POST('/api/content/duplicate/{id}', init);

    return ok(call, as<WireDeviceContent>()).then(contentFromWire);
  });
}

/** Whether the caller may change an item: not locked, not shown through a read-only team. */
export function isWritable(item: Pick<DeviceContent, 'locked' | 'readOnly'>): boolean {
  return !item.locked && !item.readOnly;
}

export function useSetContentTags() {
  return contentResource.useMutation((input: { id: string; tags: string[] }) =>
    ok(api.POST('/api/deviceContent/{id}/setTags', { params: { path: { id: input.id } }, body: input.tags }), as<WireDeviceContent>()).then(
      contentFromWire,
    ),
  );
}

/** Bulk tags on exactly the given items (`search=id∈…`; never an empty search, which would mean every item). Locked items are left alone. */
export function useBulkContentTags() {
  return contentResource.useMutation(
    ({ ids, verb, tags }: { ids: readonly string[]; verb: 'add' | 'remove'; tags: string[] }, { customerId }) => {
      if (ids.length === 0) return Promise.resolve({ updated: 0 });

      const init = { params: { query: { search: term('id', '∈', ids).text, ...tenantQuery(customerId) } }, body: tags };

      return ok(verb === 'add' ? api.POST('/api/v2/deviceContent/tags/add', init) : api.POST('/api/v2/deviceContent/tags/remove', init));
    },
  );
}

/** What deleting needs to know of the selected items: who embeds them, and whether they are locked or read-only. */
export type DeletionCheck = Pick<DeviceContent, 'id' | 'name' | 'deviceContentType' | 'structureType' | 'locked' | 'readOnly'> & {
  usageDetails?: Array<{ id?: string; name?: string }>;
};

export function fetchForDeletion(ids: readonly string[], customerId: number | undefined, signal?: AbortSignal) {
  return ok(
    api.GET('/api/v2/deviceContent', {
      params: {
        query: {
          size: ids.length,
          search: term('id', '∈', ids).text,
          select: 'name,deviceContentType,structureType,locked,usageDetails',
          includeReadOnlyInfo: true,
          ...tenantQuery(customerId),
        },
      },
      signal,
    }),
    as<Page<DeletionCheck>>(),
  );
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
        const params = { path: { id: item.id } };
        await (pathOf(item) === 'simpleLoop'
          ? api.DELETE('/api/simpleLoop/{id}', { params })
          : api.DELETE('/api/content/{id}', { params }));
        onProgress?.(index + 1);
      }
    } finally {
      await invalidate();
    }
  };
}

/** The starter templates (a handful: one page holds them all). */
export async function fetchTemplates(signal?: AbortSignal): Promise<Page<Template>> {
  return ok(api.GET('/api/template', { params: { query: { size: 100 } }, signal }), as<Page<Template>>());
}

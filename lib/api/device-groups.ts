'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { defineFolderResource, type FolderLevel } from '@/lib/api/folder-resource';
import { NULL, term, toSearch } from '@/lib/api/query-language';
import type { Schemas } from '@/lib/api/types';
import type { DeviceGroup } from '@/server/modules/device-groups/device-groups.schemas';

export type { DeviceGroup } from '@/server/modules/device-groups/device-groups.schemas';

type DeviceGroupType = NonNullable<DeviceGroup['type']>;

// `alertCount` (select-only): the open alerts of the screens in and below each folder, one subquery per folder row.
const FOLDER_FIELDS = 'name,parentId,deviceGroupPath,type,alertCount';

/** The device folders of the selected tenant: one level at a time (the tree opens them lazily). */
const deviceFolders = defineFolderResource({
  item: as<DeviceGroup>(),
  key: 'deviceGroups',
  list: '/api/v2/deviceGroup',
  levelQuery: (level: FolderLevel) => ({ search: toSearch(term('parentId', '=', level.parentId ?? NULL)), select: FOLDER_FIELDS }),
  detail: '/api/v2/deviceGroup/{id}',
  teamCapable: true,
  // The screens list shows folder names; deleting a folder moves its screens.
  items: ['devices'],
  create: (input: { parentId: string; name: string; type: DeviceGroupType }, { customerId }) =>
    ok(
      api.POST('/api/deviceGroup/{id}', {
        params: { path: { id: input.parentId }, query: tenantQuery(customerId) },
        body: { name: input.name, type: input.type },
      }),
      as<DeviceGroup>(),
    ),
  rename: (input: { id: string; name: string }, { customerId }) =>
    ok(
      api.PUT('/api/deviceGroup/{id}', { params: { path: { id: input.id }, query: tenantQuery(customerId) }, body: { name: input.name } }),
      as<DeviceGroup>(),
    ),
  /** Moves a folder (with everything below it) into another. */
  move: (input: { id: string; targetId: string }, { customerId }) =>
    ok(
      api.POST('/api/deviceGroup/moveToParent/{folderId}/{targetFolderId}', {
        params: { path: { folderId: input.id, targetFolderId: input.targetId }, query: tenantQuery(customerId) },
      }),
      as<DeviceGroup>(),
    ),
  /** Deletes a folder and every folder below it; their screens move into `targetGroupId`. */
  remove: (input: { id: string; targetGroupId: string }, { customerId }) =>
    ok(
      api.DELETE('/api/deviceGroup/{id}', {
        params: { path: { id: input.id }, query: { targetGroupId: input.targetGroupId, ...tenantQuery(customerId) } },
      }),
    ),
});

export const deviceGroupResource = deviceFolders.resource;

/** The tenant's root device folder (created with the tenant; it has no name). */
export const useDeviceRoot = () => deviceFolders.useRoot({});

/** The sub-folders of one folder, by name (at most 500 per level). */
export const useDeviceGroupChildren = (parentId: string | undefined) => deviceFolders.useChildren(parentId, {});

/** Online and offline screens in and below one folder. */
export type OnlineOffline = Schemas['DeviceGroupOnlineOfflineRatio'][string];

/**
 * Online and offline screens in and below every folder of the tenant: one request for the whole tree (the
 * API answers a map of folder id → counts), refreshed every 30 s and whenever devices or folders change.
 */
export function useDeviceGroupCounts() {
  const customerId = deviceGroupResource.useScope();

  return useQuery({
    queryKey: [...deviceGroupResource.keys.all, 'onlineOffline', { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/deviceGroup/getDeviceOnlineOfflineRatio', { params: { query: tenantQuery(customerId) }, signal })),
    refetchInterval: 30_000,
  });
}

export const useCreateDeviceGroup = deviceFolders.useCreate;
export const useRenameDeviceGroup = deviceFolders.useRename;
/** Moves a folder (with everything below it) into another. */
export const useMoveDeviceGroup = deviceFolders.useMove;
/** Deletes a folder and every folder below it; their screens move into `targetGroupId`. */
export const useDeleteDeviceGroup = deviceFolders.useDelete;

'use client';

import { useQuery } from '@tanstack/react-query';
import { apiFetch, as } from '@/lib/api/client';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { NULL, term, toSearch } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import type { DeviceGroup } from '@/server/modules/device-groups/device-groups.schemas';

export type { DeviceGroup } from '@/server/modules/device-groups/device-groups.schemas';

export type DeviceGroupType = NonNullable<DeviceGroup['type']>;

const FOLDER_FIELDS = 'name,parentId,deviceGroupPath,type';

type FolderListParams = ListRequest & { parentId: string };

/** The device folders of the selected tenant: one level at a time (the tree opens them lazily). */
export const deviceGroupResource = defineResource({
  item: as<DeviceGroup>(),
  key: 'deviceGroups',
  list: '/api/v2/deviceGroup',
  listQuery: (params: FolderListParams) => ({ search: toSearch(term('parentId', '=', params.parentId)), select: FOLDER_FIELDS }),
  detail: '/api/v2/deviceGroup/{id}',
  teamCapable: true,
  // The screens list shows folder names; deleting a folder moves its screens.
  invalidates: [['devices']],
});

/** The tenant's root device folder (created with the tenant; it has no name). */
export function useDeviceRoot() {
  const customerId = deviceGroupResource.useScope();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...deviceGroupResource.keys.all, 'root', { customerId }] as const,
    queryFn: async ({ signal }) => {
      const page = await apiFetch<Page<DeviceGroup>>('/api/v2/deviceGroup', {
        query: { size: 1, search: toSearch(term('parentId', '=', NULL)), select: FOLDER_FIELDS, ...teamReads.params },
        customerId,
        signal,
      });

      return page.content[0] ?? null;
    },
    enabled: teamReads.ready,
  });
}

/** The sub-folders of one folder, by name (at most 500 per level). */
export function useDeviceGroupChildren(parentId: string | undefined) {
  return deviceGroupResource.useList({ page: 0, size: 500, sort: 'name,asc', parentId: parentId ?? '' }, { enabled: Boolean(parentId) });
}

export type OnlineOffline = { onlineCount: number; offlineCount: number };

/**
 * Online and offline screens in and below every folder of the tenant: one request for the whole tree (the
 * API answers a map of folder id → counts), refreshed every 30 s and whenever devices or folders change.
 */
export function useDeviceGroupCounts() {
  const customerId = deviceGroupResource.useScope();

  return useQuery({
    queryKey: [...deviceGroupResource.keys.all, 'onlineOffline', { customerId }] as const,
    queryFn: ({ signal }) => apiFetch<Record<string, OnlineOffline>>('/api/deviceGroup/getDeviceOnlineOfflineRatio', { customerId, signal }),
    refetchInterval: 30_000,
  });
}

export function useCreateDeviceGroup() {
  return deviceGroupResource.useMutation((input: { parentId: string; name: string; type: DeviceGroupType }, { customerId }) =>
    apiFetch<DeviceGroup>(`/api/deviceGroup/${encodeURIComponent(input.parentId)}`, { method: 'POST', body: { name: input.name, type: input.type }, customerId }),
  );
}

export function useRenameDeviceGroup() {
  return deviceGroupResource.useMutation((input: { id: string; name: string }, { customerId }) =>
    apiFetch<DeviceGroup>(`/api/deviceGroup/${encodeURIComponent(input.id)}`, { method: 'PUT', body: { name: input.name }, customerId }),
  );
}

/** Moves a folder (with everything below it) into another. */
export function useMoveDeviceGroup() {
  return deviceGroupResource.useMutation((input: { id: string; targetId: string }, { customerId }) =>
    apiFetch<DeviceGroup>(`/api/deviceGroup/moveToParent/${encodeURIComponent(input.id)}/${encodeURIComponent(input.targetId)}`, { method: 'POST', customerId }),
  );
}

/** Deletes a folder and every folder below it; their screens move into `targetGroupId`. */
export function useDeleteDeviceGroup() {
  return deviceGroupResource.useMutation(
    (input: { id: string; targetGroupId: string }, { customerId }) =>
      apiFetch<void>(`/api/deviceGroup/${encodeURIComponent(input.id)}`, { method: 'DELETE', query: { targetGroupId: input.targetGroupId }, customerId }),
    { deletes: true },
  );
}

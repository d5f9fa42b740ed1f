'use client';

import { useQuery } from '@tanstack/react-query';
import { apiFetch, as } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, NOT_NULL, term, toSearch, type Expr } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TenantSelection } from '@/lib/tenant/tenant-cookie';
import type { CommandName, DeviceCommandEntry, DeviceSettings } from '@/server/modules/devices/device-commands.schemas';
import type { Device, DeviceGraphs, DevicePreview, DeviceUpdate } from '@/server/modules/devices/devices.schemas';
import type { DeviceSchedule, NowPlayingList, PlaybackExplanation } from '@/server/modules/display/display.schemas';

export type { Device } from '@/server/modules/devices/devices.schemas';

/** The screens list's status filter. */
export const STATUS_FILTERS = ['all', 'online', 'offline'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The screens list's licence filter (spec 3 `licenseStatus`). */
export const LICENSE_FILTERS = ['all', 'UN_LICENSED', 'FREE', 'LICENSED', 'TRIAL'] as const;
export type LicenseFilter = (typeof LICENSE_FILTERS)[number];

export type DeviceListParams = ListRequest & {
  text: string;
  status: StatusFilter;
  /** A folder's screens: directly in it, or (recursive) in it and every folder below it. Empty: every folder. */
  folderId?: string;
  recursive?: boolean;
  /** Screens carrying any of these tags. */
  tags?: readonly string[];
  license?: LicenseFilter;
  /**
   * Screens of every tenant the caller manages (ADMIN under "All tenants", a network owner under its whole
   * network), each with its tenant: the scope is the API's (no `customerId`); ADMIN's unclaimed devices, which
   * belong to no tenant, are left out.
   */
  acrossTenants?: boolean;
};

/** Devices some tenant has claimed (ADMIN's scope of every tenant also holds the unclaimed ones). */
const CLAIMED = term('customerId', '=', NOT_NULL);

/** The search of a count: the devices matching `expr`, across tenants only those some tenant claimed. */
export function deviceCountSearch(expr: Expr | null, acrossTenants: boolean): string | undefined {
  return toSearch(and(expr, acrossTenants ? CLAIMED : null));
}

const LIST_FIELDS = 'name,deviceStatus,lastActivity,lastDeviceStatusChange,deviceGroup,content,emergencyContent,emergencyStatus,tags,type,platform,licenseStatus,licenseType,timeZone,previewPath';

/** The screens of the selected tenant (`/api/v2/device`). */
export const deviceResource = defineResource({
  item: as<Device>(),
  key: 'devices',
  list: '/api/v2/device',
  listQuery: (params: DeviceListParams) => ({
    search: toSearch(
      and(
        params.text.trim() ? term('name', CONTAINS_IGNORING_CASE, params.text.trim()) : null,
        params.status === 'all' ? null : term('deviceStatus', '=', params.status === 'online' ? 'ONLINE' : 'OFFLINE'),
        params.folderId ? term(params.recursive ? 'deviceGroupPath' : 'deviceGroupId', params.recursive ? ':' : '=', params.folderId) : null,
        params.tags?.length ? term('tags', '∈', params.tags) : null,
        params.license && params.license !== 'all' ? term('licenseStatus', '=', params.license) : null,
        params.acrossTenants ? CLAIMED : null,
      ),
    ),
    select: params.acrossTenants ? `${LIST_FIELDS},customer,deviceGroupPath` : LIST_FIELDS,
  }),
  detail: '/api/v2/device/{id}',
  teamCapable: true,
  // Content counts the screens that show it; folders count their online and offline screens.
  invalidates: [['content'], ['deviceGroups'], ['tags']],
});

export function useUpdateDevice() {
  return deviceResource.useMutation((input: { id: string; changes: DeviceUpdate }) =>
    apiFetch<Device>(`/api/device/${encodeURIComponent(input.id)}`, { method: 'PUT', body: input.changes }),
  );
}

export function useDeleteDevice() {
  return deviceResource.useMutation((id: string) => apiFetch<void>(`/api/device/${encodeURIComponent(id)}`, { method: 'DELETE' }));
}

/**
 * The tenant a device batch names: batches require `customerId` (a batch never spans tenants), also for a
 * user of one tenant, whose other calls leave it out. A page of one screen names the screen's own tenant: under
 * "All tenants" the selected one is none, and the caller's own would reach no device.
 */
function useBatchTenant(devicesTenant?: number): number | undefined {
  const { customerId, tenant } = useTenant();

  return devicesTenant ?? customerId ?? tenant?.id;
}

/**
 * A batch command for the devices with the given ids (`search=id∈…`), in the selected tenant. Answers how
 * many devices it reached.
 */
export function useDeviceCommand(devicesTenant?: number) {
  const customerId = useBatchTenant(devicesTenant);

  return deviceResource.useMutation(
    (input: { name: CommandName; ids: readonly string[]; params?: Record<string, string | number | boolean>; body?: unknown; remove?: boolean }) =>
      apiFetch<{ updated: number }>(`/api/v2/device/${input.name}`, {
        method: input.remove ? 'DELETE' : 'POST',
        query: { search: term('id', '∈', input.ids).text, ...Object.fromEntries(Object.entries(input.params ?? {}).map(([k, v]) => [k, String(v)])) },
        ...(input.body === undefined ? {} : { body: input.body }),
        // Batches name their one tenant always (spec 3): the selected one, else the caller's own.
        customerId,
      }),
  );
}

/** POST /api/v2/device/move: every screen into one folder (all or nothing). */
export function useMoveDevices(devicesTenant?: number) {
  return deviceResource.useMutation((input: { deviceIds: readonly string[]; targetGroupId: string }, { customerId }) =>
    apiFetch<void>('/api/v2/device/move', { method: 'POST', body: { deviceIds: input.deviceIds, targetGroupId: input.targetGroupId }, customerId: devicesTenant ?? customerId }),
  );
}

/** Adds tags to, removes them from, or sets the tags of the screens with the given ids. */
export function useBulkDeviceTags(devicesTenant?: number) {
  const customerId = useBatchTenant(devicesTenant);

  return deviceResource.useMutation(({ ids, verb, tags }: { ids: readonly string[]; verb: 'add' | 'remove' | 'set'; tags: string[] }) =>
    apiFetch<{ updated: number }>(`/api/v2/device/tags/${verb}`, { method: 'POST', query: { search: term('id', '∈', ids).text }, body: tags, customerId }),
  );
}

/** The tenant of a screen listed across tenants (`customer` selected), as the switcher selects it. */
export function deviceTenant(device: Pick<Device, 'customer'>): TenantSelection | null {
  const { customer } = device;

  return customer?.id === undefined ? null : { id: customer.id, name: customer.name ?? `Tenant ${customer.id}` };
}

/** "Online" / "Offline". */

/**
 * A screen that has never reported (no status change and no activity): there is no "since" to show, and
 * "Offline" would suggest it once was online.
 */
export function neverConnected(device: Pick<Device, 'deviceStatus' | 'lastDeviceStatusChange' | 'lastActivity'>): boolean {
  return device.deviceStatus !== 'ONLINE' && !device.lastDeviceStatusChange && !device.lastActivity;
}

/** POST /api/v2/device/assignToCustomer: claims the screen showing `activationCode` for the selected tenant. */
export function useClaimDevice() {
  return deviceResource.useMutation(
    (input: { activationCode: string; deviceName: string; timeZone: string; licenseStatus: 'UN_LICENSED' | 'FREE'; licenseType?: string }, { customerId }) =>
      apiFetch<Device>('/api/v2/device/assignToCustomer', { method: 'POST', body: input, customerId }),
  );
}

/** The metric types a screen reports (`/api/deviceStat/{id}/supportedMetrics`). */
export function useSupportedMetrics(deviceId: string) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'supportedMetrics'] as const,
    queryFn: ({ signal }) => apiFetch<string[]>(`/api/deviceStat/${encodeURIComponent(deviceId)}/supportedMetrics`, { customerId, signal }),
  });
}

/**
 * The screen's screenshots, newest first (`/api/v2/device/{id}/previewStore`). `previewPath` (which changes with each
 * new screenshot) is part of the key, so the list is read again when the screen's detail shows a new one.
 */
export function useDevicePreviews(deviceId: string, previewPath: string | null | undefined) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'previewStore', previewPath ?? null] as const,
    queryFn: ({ signal }) => apiFetch<DevicePreview[]>(`/api/v2/device/${encodeURIComponent(deviceId)}/previewStore`, { customerId, signal }),
    enabled: Boolean(previewPath),
  });
}

/** Graphs of a screen's metrics over [from, to) in `dataPoints` buckets. */
export function useDeviceGraphs(deviceId: string, input: { metricTypes: readonly string[]; from: number; to: number; dataPoints: number }) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'graphs', input] as const,
    queryFn: ({ signal }) =>
      apiFetch<DeviceGraphs>(`/api/deviceStat/${encodeURIComponent(deviceId)}/graphs`, {
        method: 'POST',
        query: { from: input.from, to: input.to, dataPoints: input.dataPoints },
        body: { metricTypes: input.metricTypes },
        customerId,
        signal,
      }),
    enabled: input.metricTypes.length > 0,
  });
}

/** A command the screen has not acknowledged yet (and that has not expired). */
export const isUnconfirmed = (entry: DeviceCommandEntry) => entry.status === 'PENDING' || entry.status === 'DELIVERED';

/**
 * A screen's newest commands and what became of each (`/api/v2/device/{id}/commands`). Polled every two
 * seconds while one is on its way, so delivery and acknowledgement show without a reload.
 */
export function useDeviceCommandHistory(deviceId: string) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'commands'] as const,
    queryFn: ({ signal }) => apiFetch<DeviceCommandEntry[]>(`/api/v2/device/${encodeURIComponent(deviceId)}/commands`, { customerId, signal }),
    refetchInterval: (query) => (query.state.data?.some(isUnconfirmed) ? 2000 : 10_000),
  });
}

/** GET /api/v2/device/{id}/settings: the screen's setting values and the newest command of each; polled while one is unconfirmed. */
export function useDeviceSettings(deviceId: string) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'settings'] as const,
    queryFn: ({ signal }) => apiFetch<DeviceSettings>(`/api/v2/device/${encodeURIComponent(deviceId)}/settings`, { customerId, signal }),
    refetchInterval: (query) => (query.state.data?.commands.some(isUnconfirmed) ? 2000 : 10_000),
  });
}

/** GET /api/v2/device/{id}/schedule: what the screen plays over [from, to) (at most 7 days), as segments. */
export function useDeviceSchedule(deviceId: string, window: { from: number; to: number }) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'schedule', window] as const,
    queryFn: ({ signal }) =>
      apiFetch<DeviceSchedule>(`/api/v2/device/${encodeURIComponent(deviceId)}/schedule`, { query: { from: String(window.from), to: String(window.to) }, customerId, signal }),
  });
}

/** GET /api/v2/device/{id}/schedule/explain: why each campaign plays or not on the screen at `at`. */
export function useDeviceExplain(deviceId: string, at: number) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'explain', at] as const,
    queryFn: ({ signal }) => apiFetch<PlaybackExplanation>(`/api/v2/device/${encodeURIComponent(deviceId)}/schedule/explain`, { query: { at: String(at) }, customerId, signal }),
  });
}

/**
 * POST /api/v2/device/schedule/now: what each of these screens plays now (a page of the list: one request
 * for all of them). Refreshed every 30 s; disabled without ids.
 */
export function useDevicesNowPlaying(deviceIds: readonly string[]) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.all, 'nowPlaying', { customerId, deviceIds }] as const,
    queryFn: ({ signal }) => apiFetch<NowPlayingList>('/api/v2/device/schedule/now', { method: 'POST', body: { deviceIds }, customerId, signal }),
    enabled: deviceIds.length > 0,
    refetchInterval: 30_000,
  });
}

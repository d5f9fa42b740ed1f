'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery, type QueryValue } from '@/lib/api/client';
import { withWireTimeZone } from '@/lib/time-zones';
import type { paths } from '@/lib/api/generated/openapi';
import { and, CONTAINS_IGNORING_CASE, NOT_NULL, term, toSearch, type Expr } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Schemas } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TenantSelection } from '@/lib/tenant/tenant-cookie';
import type { CommandName, DeviceCommandEntry } from '@/server/modules/devices/device-commands.schemas';
import type { Device, DeviceMetricType, DeviceUpdate } from '@/server/modules/devices/devices.schemas';

export type { Device } from '@/server/modules/devices/devices.schemas';

/** The screens list's status filter. */
export const STATUS_FILTERS = ['all', 'online', 'offline'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The screens list's licence filter: by status (spec 3 `licenseStatus`) or by type (`type:` and spec 3 `licenseType`). */
export const LICENSE_STATUS_FILTERS = ['UN_LICENSED', 'FREE', 'LICENSED', 'TRIAL'] as const;
export const LICENSE_TYPE_FILTERS = ['type:BASIC', 'type:PROFESSIONAL', 'type:DBA', 'type:ENTERPRISE', 'type:VIDEO_WALL'] as const;
export const LICENSE_FILTERS = ['all', ...LICENSE_STATUS_FILTERS, ...LICENSE_TYPE_FILTERS] as const;
export type LicenseFilter = (typeof LICENSE_FILTERS)[number];

/** The search term of a licence filter (none for `all`). */
export function licenseFilterTerm(filter: LicenseFilter | undefined): Expr | null {
  if (!filter || filter === 'all') return null;

  return filter.startsWith('type:') ? term('licenseType', '=', filter.slice('type:'.length)) : term('licenseStatus', '=', filter);
}

export type DeviceListParams = ListRequest & {
  text: string;
  status: StatusFilter;
  /** A folder's screens: directly in it, or (recursive) in it and every folder below it. Empty: every folder. */
  folderId?: string;
  recursive?: boolean;
  /** Screens carrying any of these tags. */
  tags?: readonly string[];
  license?: LicenseFilter;
  /** The screens holding a licence of this order (the licences page links here). */
  licenseOrderId?: number;
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

// `alerts` (select-only) is computed in the list's one statement: the open alerts of each row, no request per screen.
const LIST_FIELDS =
  'name,deviceStatus,lastActivity,lastDeviceStatusChange,deviceGroup,content,emergencyContent,emergencyStatus,tags,type,platform,licenseStatus,licenseType,licenseOrderId,timeZone,previewPath,alerts';

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
        params.folderId
          ? term(params.recursive ? 'deviceGroupPath' : 'deviceGroupId', params.recursive ? ':' : '=', params.folderId)
          : null,
        params.tags?.length ? term('tags', '∈', params.tags) : null,
        licenseFilterTerm(params.license),
        params.licenseOrderId !== undefined ? term('licenseOrderId', '=', params.licenseOrderId) : null,
        params.acrossTenants ? CLAIMED : null,
      ),
    ),
    select: params.acrossTenants ? `${LIST_FIELDS},customer,deviceGroupPath` : LIST_FIELDS,
  }),
  detail: '/api/v2/device/{id}',
  teamCapable: true,
  // Content counts the screens that show it; folders count their online and offline screens; licence orders and the
  // licence dashboard count the screens holding their licences.
  invalidates: [['content'], ['deviceGroups'], ['tags'], ['licenseOrders'], ['licenceDashboard']],
});

export function useUpdateDevice() {
  return deviceResource.useMutation((input: { id: string; changes: DeviceUpdate }) =>
    ok(api.PUT('/api/device/{id}', { params: { path: { id: input.id } }, body: withWireTimeZone(input.changes) }), as<Device>()),
  );
}

export function useDeleteDevice() {
  return deviceResource.useMutation((id: string) => ok(api.DELETE('/api/device/{id}', { params: { path: { id } } })));
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
 * The query of a batch over the devices with the given ids: `search=id∈…` and the batch's one tenant, which the
 * document requires. Without any tenant (nothing selected and none of the caller's own) it is left out, as before,
 * and the API answers why.
 */
function batchQuery(ids: readonly string[], customerId: number | undefined): { search: string; customerId: number } {
  return { search: term('id', '∈', ids).text, customerId: customerId as number };
}

/** The batch command operations: one path of the document per command (a command it lacks does not compile). */
type CommandPath = `/api/v2/device/${CommandName}` & keyof paths;
type CommandCall = (
  path: CommandPath,
  init: { params: { query: Record<string, QueryValue> }; body?: unknown },
) => Promise<{ data?: Schemas['DeviceCommandResult'] }>;

/**
 * A batch command for the devices with the given ids (`search=id∈…`), in the selected tenant. Answers how
 * many devices it reached.
 */
export function useDeviceCommand(devicesTenant?: number) {
  const customerId = useBatchTenant(devicesTenant);

  return deviceResource.useMutation(
    (input: {
      name: CommandName;
      ids: readonly string[];
      params?: Record<string, string | number | boolean>;
      body?: unknown;
      remove?: boolean;
    }) => {
      // The command is chosen at run time: every batch operation takes the tenant and the search and answers how many
      // devices it reached; each one's own parameters and body are the caller's. So the call is typed by that, not
      // per operation (as readPage in resource.ts).
      const send = (input.remove ? api.DELETE : api.POST) as unknown as CommandCall;
      const path: CommandPath = `/api/v2/device/${input.name}`;

      return ok(
        send(path, {
          // Batches name their one tenant always (spec 3): the selected one, else the caller's own.
          params: { query: { ...batchQuery(input.ids, customerId), ...input.params } },
          ...(input.body === undefined ? {} : { body: input.body }),
        }),
      );
    },
  );
}

/** POST /api/v2/device/move: every screen into one folder (all or nothing). */
export function useMoveDevices(devicesTenant?: number) {
  return deviceResource.useMutation((input: { deviceIds: readonly string[]; targetGroupId: string }, { customerId }) =>
    ok(
      api.POST('/api/v2/device/move', {
        params: { query: tenantQuery(devicesTenant ?? customerId) },
        body: { deviceIds: [...input.deviceIds], targetGroupId: input.targetGroupId },
      }),
    ),
  );
}

/** Adds tags to, removes them from, or sets the tags of the screens with the given ids. */
export function useBulkDeviceTags(devicesTenant?: number) {
  const customerId = useBatchTenant(devicesTenant);

  return deviceResource.useMutation(({ ids, verb, tags }: { ids: readonly string[]; verb: 'add' | 'remove' | 'set'; tags: string[] }) =>
    ok(api.POST(`/api/v2/device/tags/${verb}`, { params: { query: batchQuery(ids, customerId) }, body: tags })),
  );
}

/** The tenant of a screen listed across tenants (`customer` selected), as the switcher selects it. */
export function deviceTenant(device: Pick<Device, 'customer'>): TenantSelection | null {
  const { customer } = device;

  return customer?.id === undefined ? null : { id: customer.id, name: customer.name ?? `Tenant ${customer.id}` };
}

/** One open alert of a screen, as its `alerts` field answers it (the alerts module's fill). */
export type DeviceOpenAlert = { id: number; alertRuleId: number; alertRuleName: string; createdAtDate: string };

/**
 * The screen's open alerts, newest first. `alerts` is an open record on the wire (the devices module names no
 * alert shape), so each entry is read field by field and one without an id or time is left out.
 */
export function deviceOpenAlerts(device: Pick<Device, 'alerts'>): DeviceOpenAlert[] {
  return (device.alerts ?? [])
    .flatMap((entry) => {
      const { id, alertRuleId, alertRuleName, createdAtDate } = entry;
      if (typeof id !== 'number' || typeof createdAtDate !== 'string') return [];

      return [
        {
          id,
          alertRuleId: typeof alertRuleId === 'number' ? alertRuleId : 0,
          alertRuleName: typeof alertRuleName === 'string' ? alertRuleName : '',
          createdAtDate,
        },
      ];
    })
    .sort((a, b) => b.createdAtDate.localeCompare(a.createdAtDate) || b.id - a.id);
}

/**
 * A screen that has never reported (no status change and no activity): there is no "since" to show, and
 * "Offline" would suggest it once was online.
 */
export function neverConnected(device: Pick<Device, 'deviceStatus' | 'lastDeviceStatusChange' | 'lastActivity'>): boolean {
  return device.deviceStatus !== 'ONLINE' && !device.lastDeviceStatusChange && !device.lastActivity;
}

/** POST /api/v2/device/assignToCustomer: claims the screen showing `activationCode` for the selected tenant. */
export function useClaimDevice() {
  return deviceResource.useMutation((input: Omit<Schemas['DeviceAssignToCustomer'], 'timeZone'> & { timeZone: string }, { customerId }) =>
    ok(
      api.POST('/api/v2/device/assignToCustomer', { params: { query: tenantQuery(customerId) }, body: withWireTimeZone(input) }),
      as<Device>(),
    ),
  );
}

/** The metric types a screen reports (`/api/deviceStat/{id}/supportedMetrics`). */
export function useSupportedMetrics(deviceId: string) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'supportedMetrics'] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/deviceStat/{deviceId}/supportedMetrics', { params: { path: { deviceId }, query: tenantQuery(customerId) }, signal }),
      ),
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
    queryFn: ({ signal }) =>
      ok(api.GET('/api/v2/device/{id}/previewStore', { params: { path: { id: deviceId }, query: tenantQuery(customerId) }, signal })),
    enabled: Boolean(previewPath),
  });
}

/** Graphs of a screen's metrics over [from, to) in `dataPoints` buckets. */
export function useDeviceGraphs(
  deviceId: string,
  input: { metricTypes: readonly DeviceMetricType[]; from: number; to: number; dataPoints: number },
) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'graphs', input] as const,
    queryFn: ({ signal }) =>
      ok(
        api.POST('/api/deviceStat/{deviceId}/graphs', {
          params: {
            path: { deviceId },
            query: { from: input.from, to: input.to, dataPoints: input.dataPoints, ...tenantQuery(customerId) },
          },
          body: { metricTypes: [...input.metricTypes] },
          signal,
        }),
      ),
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
    queryFn: ({ signal }) =>
      ok(api.GET('/api/v2/device/{id}/commands', { params: { path: { id: deviceId }, query: tenantQuery(customerId) }, signal })),
    refetchInterval: (query) => (query.state.data?.some(isUnconfirmed) ? 2000 : 10_000),
  });
}

/** GET /api/v2/device/{id}/settings: the screen's setting values and the newest command of each; polled while one is unconfirmed. */
export function useDeviceSettings(deviceId: string) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'settings'] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/v2/device/{id}/settings', { params: { path: { id: deviceId }, query: tenantQuery(customerId) }, signal })),
    refetchInterval: (query) => (query.state.data?.commands.some(isUnconfirmed) ? 2000 : 10_000),
  });
}

/** GET /api/v2/device/{id}/schedule: what the screen plays over [from, to) (at most 7 days), as segments. */
export function useDeviceSchedule(deviceId: string, window: { from: number; to: number }) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'schedule', window] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/device/{id}/schedule', {
          params: { path: { id: deviceId }, query: { from: window.from, to: window.to, ...tenantQuery(customerId) } },
          signal,
        }),
      ),
  });
}

/** GET /api/v2/device/{id}/schedule/explain: why each campaign plays or not on the screen at `at`. */
export function useDeviceExplain(deviceId: string, at: number) {
  const customerId = deviceResource.useScope();

  return useQuery({
    queryKey: [...deviceResource.keys.detail(customerId, deviceId), 'explain', at] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/device/{id}/schedule/explain', {
          params: { path: { id: deviceId }, query: { at, ...tenantQuery(customerId) } },
          signal,
        }),
      ),
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
    queryFn: ({ signal }) =>
      ok(
        api.POST('/api/v2/device/schedule/now', {
          params: { query: tenantQuery(customerId) },
          body: { deviceIds: [...deviceIds] },
          signal,
        }),
      ),
    enabled: deviceIds.length > 0,
    refetchInterval: 30_000,
  });
}

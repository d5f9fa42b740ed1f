'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { writableTeamsQuery } from '@/lib/api/team-reads';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Schemas } from '@/lib/api/types';
import type { AlertRule } from '@/server/modules/alerts/alert-rules.schemas';
import type { DatasourceAlert, DeviceAlert } from '@/server/modules/alerts/alerts.schemas';

export type { AlertRule, DatasourceAlert, DeviceAlert };

/** What the rule form sends: the document's create and replace body. */
export type AlertRuleRequest = Schemas['AlertRuleBody'];

/** The alerts list's state filter: both, or one `state`. */
export type AlertStateFilter = 'all' | 'OPEN' | 'CLOSED';

export type AlertListParams = ListRequest & { text: string; state: AlertStateFilter; ruleId: string };

/** The list query both alert lists share: state, rule and a search over the subject's and folder's names. */
function alertListQuery(nameField: 'deviceName' | 'datasourceName') {
  return (params: AlertListParams) => {
    const text = params.text.trim();
    const search =
      nameField === 'deviceName'
        ? or(term('deviceName', CONTAINS_IGNORING_CASE, text), term('folderPath', CONTAINS_IGNORING_CASE, text))
        : term('datasourceName', CONTAINS_IGNORING_CASE, text);

    return {
      search: text ? toSearch(search) : undefined,
      state: params.state === 'all' ? undefined : params.state,
      alertRuleId: params.ruleId ? Number(params.ruleId) : undefined,
    };
  };
}

/** Alerts of the screens the caller sees (spec 2 "Alert records"); VIEWER and up. */
const deviceAlertResource = defineResource({
  item: as<DeviceAlert>(),
  key: 'deviceAlerts',
  list: '/api/alert/device',
  listQuery: alertListQuery('deviceName'),
});

/** Alerts of the datasources the caller sees; VIEWER and up. */
const datasourceAlertResource = defineResource({
  item: as<DatasourceAlert>(),
  key: 'datasourceAlerts',
  list: '/api/alert/datasource',
  listQuery: alertListQuery('datasourceName'),
});

export const useDeviceAlerts = deviceAlertResource.useList;
export const useDatasourceAlerts = datasourceAlertResource.useList;

/** Alert rules of the selected tenant (TECHNICIAN and up), team read parameters included, with `readOnly`. */
const alertRuleResource = defineResource({
  item: as<AlertRule>(),
  key: 'alertRules',
  list: '/api/alertRule',
  listQuery: (params: ListRequest & { text: string }) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
    includeReadOnlyInfo: true,
  }),
  detail: '/api/alertRule/{alertRuleId}',
  teamCapable: true,
  // The ALERT_RULE usage in the resource limits; the alerts lists name the rules; a deleted or disabled rule's alerts
  // leave the screens' badges and the folders' counts.
  invalidates: [['settings', 'limits'], ['alertRulesSimple'], ['deviceAlerts'], ['datasourceAlerts'], ['devices'], ['deviceGroups']],
});

export const useAlertRules = alertRuleResource.useList;

/** POST; `teamIds`: the rule's teams (read-write), sent as the `teamIds` query. */
export function useCreateAlertRule() {
  return alertRuleResource.useMutation(({ teamIds = [], body }: { body: AlertRuleRequest; teamIds?: string[] }, { customerId }) =>
    ok(
      api.POST('/api/alertRule', {
        params: { query: { ...writableTeamsQuery(teamIds), ...tenantQuery(customerId) } },
        body,
      }),
      as<AlertRule>(),
    ),
  );
}

/** PUT replaces the rule (the API's defaults fill what the body leaves out). */
export function useUpdateAlertRule() {
  return alertRuleResource.useMutation(({ id, body }: { id: number; body: AlertRuleRequest }, { customerId }) =>
    ok(
      api.PUT('/api/alertRule/{alertRuleId}', {
        params: { path: { alertRuleId: id }, query: tenantQuery(customerId) },
        body,
      }),
      as<AlertRule>(),
    ),
  );
}

export function useDeleteAlertRule() {
  return alertRuleResource.useMutation(
    (id: number, { customerId }) =>
      ok(api.DELETE('/api/alertRule/{alertRuleId}', { params: { path: { alertRuleId: id }, query: tenantQuery(customerId) } })),
    { deletes: true },
  );
}

/** Id and name of every rule the caller sees (at most 1 000): the alerts page's rule filter. TECHNICIAN and up. */
export function useSimpleAlertRules({ enabled }: { enabled: boolean }) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: ['alertRulesSimple', { customerId }] as const,
    queryFn: ({ signal }) => ok(api.GET('/api/alertRule/simple', { params: { query: tenantQuery(customerId) }, signal })),
    enabled,
    staleTime: 30_000,
  });
}

/** Id and name of every notification channel the caller sees (at most 1 000): the rule form's channel choice. */
export function useSimpleNotificationChannels({ enabled }: { enabled: boolean }) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: ['notificationChannels', 'simple', { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/alertRuleNotificationChannel/simple', { params: { query: tenantQuery(customerId) }, signal })),
    enabled,
    staleTime: 30_000,
  });
}

/** An open alert of either kind, for lists that show both (the overview). */
export type AnyAlert = { kind: 'device'; alert: DeviceAlert } | { kind: 'datasource'; alert: DatasourceAlert };

/** The `limit` newest of two pages of alerts (each newest first), by opening time, then id. */
export function newestAlerts(devices: readonly DeviceAlert[], datasources: readonly DatasourceAlert[], limit: number): AnyAlert[] {
  const all: AnyAlert[] = [
    ...devices.map((alert) => ({ kind: 'device' as const, alert })),
    ...datasources.map((alert) => ({ kind: 'datasource' as const, alert })),
  ];

  return all
    .sort((a, b) => (b.alert.createdAtDate ?? '').localeCompare(a.alert.createdAtDate ?? '') || b.alert.id - a.alert.id)
    .slice(0, limit);
}

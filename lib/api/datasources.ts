'use client';

import { useMutation } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { writableTeamsQuery } from '@/lib/api/team-reads';
import type { Schemas } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';
import { wireTimeZone } from '@/lib/time-zones';
import type { Datasource, DatasourceCreate, DatasourceTestResult, SourceType } from '@/server/modules/datasources/datasources.schemas';

export type { Datasource, DatasourceCreate, DatasourceTestResult };

/** The list's filter by kind: every kind, or one `sourceType`. */
export type SourceTypeFilter = 'all' | SourceType;

type DatasourceListParams = ListRequest & { text: string; sourceType: SourceTypeFilter };

/** Every attribute of the default shape, with the content that uses each datasource (the "Used by" column). */
const LIST_SELECT = '*,usageDetails';

/**
 * Datasources of the selected tenant (spec 3 "Datasources"), team read parameters included: the one declaration of
 * the `datasources` keys (the detail page's reads in datasource-data.ts use it too).
 */
export const datasourceResource = defineResource({
  item: as<Datasource>(),
  key: 'datasources',
  list: '/api/v2/datasource',
  listQuery: (params: DatasourceListParams) => ({
    search: toSearch(
      and(
        params.text.trim() ? term('name', CONTAINS_IGNORING_CASE, params.text.trim()) : null,
        params.sourceType === 'all' ? null : term('sourceType', '=', params.sourceType),
      ),
    ),
    select: LIST_SELECT,
    includeReadOnlyInfo: true,
  }),
  detail: '/api/v2/datasource/{id}',
  teamCapable: true,
  // The DATASOURCE usage in the resource limits.
  invalidates: [['settings', 'limits']],
});

export const useDatasources = datasourceResource.useList;

type CronParameters = { cronExpression: string; timeZone: string };

/** An update body as the form builds it: the zones as strings (the document types them as its `TimeZone` names). */
export type DatasourceUpdateInput = Omit<Schemas['DatasourceUpdate'], 'timeZone' | 'cronExpressionParameters'> & {
  timeZone?: string;
  /** "" goes back to `refreshFrequency`. */
  cronExpressionParameters?: '' | CronParameters;
};

/** A zone the form took from the server's own list, typed as the document's name (`wireTimeZone` checks it). */
const wireCron = (cron: CronParameters) => ({ cronExpression: cron.cronExpression, timeZone: wireTimeZone(cron.timeZone) });

function wireCreate({ timeZone, cronExpressionParameters, ...rest }: DatasourceCreate): Schemas['DatasourceCreate'] {
  return {
    ...rest,
    ...(timeZone ? { timeZone: wireTimeZone(timeZone) } : {}),
    ...(cronExpressionParameters ? { cronExpressionParameters: wireCron(cronExpressionParameters) } : {}),
  };
}

function wireUpdate({ timeZone, cronExpressionParameters, ...rest }: DatasourceUpdateInput): Schemas['DatasourceUpdate'] {
  return {
    ...rest,
    ...(timeZone ? { timeZone: wireTimeZone(timeZone) } : {}),
    ...(cronExpressionParameters === undefined
      ? {}
      : { cronExpressionParameters: cronExpressionParameters === '' ? '' : wireCron(cronExpressionParameters) }),
  };
}

/** POST /api/datasource; `teamIds`: the datasource's teams (read-write), sent as the `teamIds` query. */
export function useCreateDatasource() {
  return datasourceResource.useMutation(({ teamIds = [], body }: { body: DatasourceCreate; teamIds?: string[] }, { customerId }) =>
    ok(
      api.POST('/api/datasource', {
        params: { query: { ...writableTeamsQuery(teamIds), ...tenantQuery(customerId) } },
        body: wireCreate(body),
      }),
      as<Datasource>(),
    ),
  );
}

/** PUT /api/datasource/{id}: the metadata and the kind's settings (the kinds are fixed). */
export function useUpdateDatasource() {
  return datasourceResource.useMutation(({ id, body }: { id: string; body: DatasourceUpdateInput }, { customerId }) =>
    ok(
      api.PUT('/api/datasource/{id}', { params: { path: { id }, query: tenantQuery(customerId) }, body: wireUpdate(body) }),
      as<Datasource>(),
    ),
  );
}

export function useDeleteDatasource() {
  return datasourceResource.useMutation(
    (id: string, { customerId }) => ok(api.DELETE('/api/datasource/{id}', { params: { path: { id }, query: tenantQuery(customerId) } })),
    { deletes: true },
  );
}

/** POST /api/datasource/refresh/{id}?sync=true: refreshes now and answers the datasource (`lastError` when it failed). */
export function useRefreshDatasource() {
  return datasourceResource.useMutation((id: string, { customerId }) =>
    ok(
      api.POST('/api/datasource/refresh/{id}', { params: { path: { id }, query: { sync: true, ...tenantQuery(customerId) } } }),
      as<Datasource>(),
    ),
  );
}

/** DELETE /api/datasource/{id}/clearCache: the next refresh (due now) fetches the whole document. */
export function useClearDatasourceCache() {
  return datasourceResource.useMutation((id: string, { customerId }) =>
    ok(api.DELETE('/api/datasource/{id}/clearCache', { params: { path: { id }, query: tenantQuery(customerId) } })),
  );
}

/** POST /api/datasource/test: what a datasource with these settings would hold now; nothing is saved or refreshed. */
export function useTestDatasource() {
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: (body: DatasourceCreate) =>
      ok(
        api.POST('/api/datasource/test', { params: { query: tenantQuery(customerId) }, body: wireCreate(body) }),
        as<DatasourceTestResult>(),
      ),
  });
}

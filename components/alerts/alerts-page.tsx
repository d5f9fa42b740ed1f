'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, type ReactNode } from 'react';
import { relativeTime } from '@/components/datasources/datasource-status';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/field';
import { WarningIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import {
  useDatasourceAlerts,
  useDeviceAlerts,
  useSimpleAlertRules,
  type AlertListParams,
  type AlertStateFilter,
  type DatasourceAlert,
  type DeviceAlert,
} from '@/lib/api/alerts';
import { useCurrentUser } from '@/lib/auth/current-user';
import { cn } from '@/lib/cn';
import { choiceFilter, patternFilter, sortParam, useListParams, type ListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useFormat } from '@/lib/i18n/use-format';
import type { Translate } from '@/lib/i18n/translate';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';
import { useNow } from '@/lib/hooks/use-now';

const KINDS = ['device', 'datasource'] as const;
type AlertKind = (typeof KINDS)[number];
const STATES = ['all', 'OPEN', 'CLOSED'] as const satisfies readonly AlertStateFilter[];
const FILTERS = {
  kind: choiceFilter('kind', KINDS),
  state: choiceFilter('state', STATES),
  rule: patternFilter('rule', /^\d{1,18}$/),
};
const DEFAULT_SORT: SortState = { field: 'createdAtDate', direction: 'desc' };
const SORTABLE = ['createdAtDate', 'deviceName', 'datasourceName'] as const;

type Words = { t: Translate<'alerts'>; format: ReturnType<typeof useFormat>; now: number };

/** A past time relative to now, the exact time (the user's locale) on hover. */
function Ago({ time, words }: { time: string | undefined; words: Words }) {
  if (!time) return <span className="text-zinc-400">—</span>;
  const at = Date.parse(time);

  return (
    <time dateTime={time} className="whitespace-nowrap text-zinc-700" title={words.format.dateTime(at)}>
      {relativeTime(Math.min(at, words.now), words.now, words.format.locale)}
    </time>
  );
}

/** Open, or when it closed. */
function StateCell({ alert, words }: { alert: DeviceAlert | DatasourceAlert; words: Words }) {
  if (alert.open !== false) return <Badge tone="danger">{words.t('state.open')}</Badge>;

  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone="success">{words.t('state.closed')}</Badge>
      <Ago time={alert.closedAtDate} words={words} />
    </span>
  );
}

function subjectLink(href: string | null, name: string) {
  return href ? (
    <Link href={href} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline" translate="no">
      {name}
    </Link>
  ) : (
    <span className="font-medium text-zinc-900" translate="no">
      {name}
    </span>
  );
}

/** The columns both lists share after the subject: since when, the state and the rule. */
function commonColumns<T extends DeviceAlert | DatasourceAlert>(words: Words): ColumnDef<T>[] {
  const { t } = words;

  return [
    {
      id: 'createdAtDate',
      meta: { size: 120 },
      header: t('columns.since'),
      cell: ({ row }) => <Ago time={row.original.createdAtDate} words={words} />,
    },
    {
      id: 'state',
      meta: { priority: 1, size: 150 },
      header: t('columns.state'),
      enableSorting: false,
      cell: ({ row }) => <StateCell alert={row.original} words={words} />,
    },
    {
      id: 'rule',
      meta: { priority: 2, size: 160 },
      header: t('columns.rule'),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="text-zinc-700" translate="no">
          {row.original.alertRuleName ?? ''}
        </span>
      ),
    },
  ];
}

function deviceColumns(words: Words): ColumnDef<DeviceAlert>[] {
  const { t } = words;
  const [since, ...rest] = commonColumns<DeviceAlert>(words);

  return [
    {
      id: 'deviceName',
      meta: { size: 200 },
      header: t('columns.screen'),
      cell: ({ row }) => subjectLink(row.original.deviceId ? `/screens/${row.original.deviceId}` : null, row.original.deviceName ?? ''),
    },
    since!,
    ...rest,
    {
      id: 'folder',
      meta: { priority: 3, size: 200 },
      header: t('columns.folder'),
      enableSorting: false,
      cell: ({ row }) => (
        <p className="max-w-72 truncate text-zinc-600" title={row.original.folderPath} translate="no">
          {row.original.folderPath ?? ''}
        </p>
      ),
    },
  ];
}

function datasourceColumns(words: Words): ColumnDef<DatasourceAlert>[] {
  const { t } = words;
  const [since, ...rest] = commonColumns<DatasourceAlert>(words);

  return [
    {
      id: 'datasourceName',
      meta: { size: 200 },
      header: t('columns.datasource'),
      cell: ({ row }) =>
        subjectLink(row.original.datasourceId ? `/datasources/${row.original.datasourceId}` : null, row.original.datasourceName ?? ''),
    },
    since!,
    ...rest,
    {
      id: 'lastError',
      meta: { priority: 3, size: 220 },
      header: t('columns.lastError'),
      enableSorting: false,
      cell: ({ row }) => (
        <p className="max-w-72 truncate text-zinc-600" title={row.original.datasourceLastError} translate="no">
          {row.original.datasourceErrorCounter !== undefined ? t('failures', { count: row.original.datasourceErrorCounter }) : ''}
          {row.original.datasourceLastError ? ` · ${row.original.datasourceLastError}` : ''}
        </p>
      ),
    },
  ];
}

type ListState = ReturnType<typeof useAlertList>;

function useAlertList() {
  return useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
}

/** What the lists ask the API for: the list's state without the kind. */
function apiParams(params: ListParams & { state: AlertStateFilter; rule: string }): AlertListParams {
  return {
    page: params.page,
    size: params.size,
    sort: sortParam(params.sort),
    text: params.text,
    state: params.state,
    ruleId: params.rule,
  };
}

type ListProps = { list: ListState; words: Words; filters: ReactNode; empty: { body: ReactNode; action: ReactNode } };

function listShared({ list, words, filters, empty }: ListProps) {
  const { t } = words;
  const { params, update } = list;

  return {
    list,
    sortable: SORTABLE,
    filters,
    isFiltered: params.state !== 'all' || params.rule !== '',
    onClearFilters: () => update({ state: 'all', rule: '' }),
    errorTitle: t('loadError'),
    empty: { icon: <WarningIcon className="size-5 text-zinc-500" />, title: t('emptyTitle'), body: empty.body, action: empty.action },
    filteredHint: t('filteredHint'),
  };
}

function DeviceAlertList(props: ListProps) {
  const { t } = props.words;
  const query = useDeviceAlerts(apiParams(props.list.params));
  const columns = useMemo(() => deviceColumns(props.words), [props.words]);

  return (
    <ResourceList
      identity={{ name: 'device-alerts', noun: { one: t('noun.device.one'), other: t('noun.device.other') } }}
      query={query}
      columns={columns}
      getRowId={(alert) => String(alert.id)}
      search={{ label: t('searchScreens'), placeholder: t('searchScreensPlaceholder') }}
      {...listShared(props)}
    />
  );
}

function DatasourceAlertList(props: ListProps) {
  const { t } = props.words;
  const query = useDatasourceAlerts(apiParams(props.list.params));
  const columns = useMemo(() => datasourceColumns(props.words), [props.words]);

  return (
    <ResourceList
      identity={{ name: 'datasource-alerts', noun: { one: t('noun.datasource.one'), other: t('noun.datasource.other') } }}
      query={query}
      columns={columns}
      getRowId={(alert) => String(alert.id)}
      search={{ label: t('searchDatasources'), placeholder: t('searchDatasourcesPlaceholder') }}
      {...listShared(props)}
    />
  );
}

/** Screens or datasources: two tabs over one list state (filters and search are kept, the page starts again). */
function KindTabs({ value, onChange, t }: { value: AlertKind; onChange: (kind: AlertKind) => void; t: Translate<'alerts'> }) {
  return (
    <div role="tablist" aria-label={t('kinds.label')} className="mb-4 flex gap-1 border-b border-zinc-200">
      {KINDS.map((kind) => (
        <button
          key={kind}
          type="button"
          role="tab"
          aria-selected={value === kind}
          onClick={() => onChange(kind)}
          className={cn(
            '-mb-px cursor-pointer border-b-2 px-3 py-2 text-sm font-medium',
            value === kind ? 'border-brand-600 text-brand-700' : 'border-transparent text-zinc-600 hover:text-zinc-900',
          )}
        >
          {t(`kinds.${kind}`)}
        </button>
      ))}
    </div>
  );
}

/** Open and recent alerts of the tenant's screens and datasources (VIEWER and up); the rule filter for TECHNICIAN and up. */
export function AlertsPage() {
  const t = useTranslations('alerts');
  const format = useFormat();
  const me = useCurrentUser();
  const { tenant } = useTenant();
  const isTechnician = hasRole(me.role, 'TECHNICIAN');
  const list = useAlertList();
  const { params, update } = list;
  const rules = useSimpleAlertRules({ enabled: isTechnician });
  const now = useNow();
  const words = useMemo(() => ({ t, format, now }), [t, format, now]);

  // Each select its own toolbar item (as wide as its longest option), so the toolbar wraps between them, not inside.
  const filters = (
    <>
      <div className="shrink-0">
        <FilterSelect
          aria-label={t('filter.state')}
          value={params.state}
          // The options are STATES: the value is one of them.
          onChange={(e) => update({ state: e.target.value as AlertStateFilter })}
        >
          {STATES.map((state) => (
            <option key={state} value={state}>
              {t(`filter.states.${state}`)}
            </option>
          ))}
        </FilterSelect>
      </div>
      {isTechnician ? (
        <div className="shrink-0">
          <FilterSelect aria-label={t('filter.rule')} value={params.rule} onChange={(e) => update({ rule: e.target.value })}>
            <option value="">{t('filter.allRules')}</option>
            {/* A rule in the URL that is not listed (deleted, another tenant's) still shows as chosen. */}
            {params.rule && rules.data && !rules.data.content.some((r) => String(r.id) === params.rule) ? (
              <option value={params.rule}>{t('filter.unknownRule')}</option>
            ) : null}
            {(rules.data?.content ?? []).map((rule) => (
              <option key={rule.id} value={String(rule.id)}>
                {rule.name}
              </option>
            ))}
          </FilterSelect>
        </div>
      ) : null}
    </>
  );
  const empty = {
    body: isTechnician ? t('emptyTextTechnician') : t('emptyText'),
    action: isTechnician ? (
      <Button size="sm" asChild>
        <Link href="/alert-rules">{t('toRules')}</Link>
      </Button>
    ) : null,
  };
  const props = { list, words, filters, empty };

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          tenant
            ? t.rich('descriptionOf', {
                name: tenant.name,
                strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
              })
            : t('description')
        }
        actions={
          isTechnician ? (
            <Button variant="secondary" asChild>
              <Link href="/alert-rules">{t('toRules')}</Link>
            </Button>
          ) : null
        }
      />
      <KindTabs value={params.kind} onChange={(kind) => update({ kind })} t={t} />
      {params.kind === 'device' ? <DeviceAlertList {...props} /> : <DatasourceAlertList {...props} />}
    </>
  );
}

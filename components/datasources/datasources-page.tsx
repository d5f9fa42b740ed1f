'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { DatasourceFormDialog, DeleteDatasourceDialog } from '@/components/datasources/datasource-dialogs';
import { isAwaitingRefresh, relativeTime, statusOf } from '@/components/datasources/datasource-status';
import { TenantRequired } from '@/components/shell/tenant-required';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { FilterSelect } from '@/components/ui/field';
import { DatabaseIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice, type Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import {
  useClearDatasourceCache,
  useDatasources,
  useRefreshDatasource,
  useUpdateDatasource,
  type Datasource,
  type SourceTypeFilter,
} from '@/lib/api/datasources';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';
import { useNow } from '@/lib/hooks/use-now';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'lastUpdated'] as const;
const SOURCE_FILTERS = ['all', 'INTERNAL', 'EXTERNAL', 'SYSTEM'] as const satisfies readonly SourceTypeFilter[];
const FILTERS = { sourceType: choiceFilter('kind', SOURCE_FILTERS) };
/** How often the list looks again while a new external datasource waits for its first refresh (due within seconds). */
const AWAITING_POLL_MS = 3_000;

type RowAction = { kind: 'edit' | 'delete'; datasource: Datasource };

type Words = {
  t: Translate<'datasources'>;
  label: Label;
  format: ReturnType<typeof useFormat>;
  now: number;
};

/** "External · RSS", "System · Files", "Internal". */
function typeOf(d: Datasource, label: Label): string {
  const source = label('datasourceSource', d.sourceType);
  const type = d.sourceType === 'SYSTEM' ? d.systemDatasourceType : d.type;

  return type ? `${source} · ${label('datasourceType', type)}` : source;
}

/** A time relative to now, the exact time in its title; `empty` when there is none. */
/**
 * A time relative to now, the exact time in its title; `empty` when there is none. A time of the past is never
 * "in 2 seconds" (the server's clock may run ahead of the browser's), nor a time to come "2 seconds ago".
 */
function When({ time, tense, empty, words }: { time: number | null | undefined; tense: 'past' | 'future'; empty: string; words: Words }) {
  if (time === null || time === undefined) return <span className="text-zinc-400">{empty}</span>;
  const shown = tense === 'past' ? Math.min(time, words.now) : Math.max(time, words.now);

  return (
    <span className="whitespace-nowrap text-zinc-600" title={words.format.dateTime(time)}>
      {relativeTime(shown, words.now, words.format.locale)}
    </span>
  );
}

function StatusCell({ datasource, words }: { datasource: Datasource; words: Words }) {
  const { t } = words;
  const status = statusOf(datasource);
  switch (status.kind) {
    case 'notRefreshed':
      return <span className="whitespace-nowrap text-zinc-500">{t(`status.${status.sourceType}`)}</span>;
    case 'ok':
      return <Badge tone="success">{t('status.ok')}</Badge>;
    case 'pending':
      return <Badge tone="info">{t('status.pending')}</Badge>;
    case 'failing':
    case 'deactivated':
      return (
        <div className="min-w-48">
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone={status.kind === 'failing' ? 'danger' : 'warning'}>{t(`status.${status.kind}`)}</Badge>
            {status.count > 0 ? <span className="text-xs text-zinc-500">{t('status.failedTimes', { count: status.count })}</span> : null}
          </div>
          {status.error ? (
            <p className="mt-1 line-clamp-2 max-w-72 text-xs break-words text-red-700" title={status.error} translate="no">
              {status.error}
            </p>
          ) : null}
        </div>
      );
  }
}

function UsedByCell({ datasource, words }: { datasource: Datasource; words: Words }) {
  const usages = datasource.usageDetails ?? [];
  if (usages.length === 0) return <span className="whitespace-nowrap text-zinc-400">{words.t('usedByNone')}</span>;

  return (
    <span className="whitespace-nowrap text-zinc-600" title={usages.map((u) => u.contentName).join(', ')}>
      {words.t('usedBy', { count: usages.length })}
    </span>
  );
}

// Sizes are what a column takes with its header in the longer language (German, uppercase): the table hides
// columns by them, and the name, which takes what the others leave, keeps room for the hidden ones' values.
function buildColumns(
  words: Words,
  canWrite: boolean,
  actions: {
    onAction: (action: RowAction) => void;
    onRefresh: (d: Datasource) => void;
    onReactivate: (d: Datasource) => void;
    onClearCache: (d: Datasource) => void;
  },
): ColumnDef<Datasource>[] {
  const { t, label } = words;

  return [
    {
      id: 'name',
      meta: { size: 240 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => (
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Link
            href={`/datasources/${row.original.id}`}
            className="font-medium break-words text-zinc-900 hover:text-brand-700 hover:underline"
            translate="no"
          >
            {row.original.name}
          </Link>
          {row.original.readOnly ? <Badge>{t('readOnly')}</Badge> : null}
          {(row.original.tags ?? []).map((tag) => (
            <Badge key={tag}>{tag}</Badge>
          ))}
        </div>
      ),
    },
    {
      id: 'type',
      meta: { priority: 1, size: 170 },
      header: t('columns.type'),
      enableSorting: false,
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-700">{typeOf(row.original, label)}</span>,
    },
    {
      id: 'structure',
      meta: { priority: 5, size: 110 },
      header: t('columns.structure'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{label('datasourceStructure', row.original.structureType)}</span>,
    },
    {
      id: 'status',
      meta: { size: 230 },
      header: t('columns.status'),
      enableSorting: false,
      cell: ({ row }) => <StatusCell datasource={row.original} words={words} />,
    },
    {
      id: 'lastRefresh',
      meta: { priority: 4, size: 170 },
      header: t('columns.lastRefresh'),
      enableSorting: false,
      cell: ({ row }) => (
        <When
          time={row.original.lastRefreshTime}
          tense="past"
          empty={row.original.sourceType === 'EXTERNAL' ? t('never') : '—'}
          words={words}
        />
      ),
    },
    {
      id: 'nextRefresh',
      meta: { priority: 6, size: 130 },
      header: t('columns.nextRefresh'),
      enableSorting: false,
      cell: ({ row }) => <When time={row.original.nextRefreshTime} tense="future" empty="—" words={words} />,
    },
    {
      id: 'lastUpdated',
      meta: { priority: 2, size: 160 },
      accessorKey: 'lastUpdated',
      header: t('columns.lastUpdated'),
      cell: ({ row }) => <When time={row.original.lastUpdated} tense="past" empty={t('never')} words={words} />,
    },
    {
      id: 'usedBy',
      meta: { priority: 3, size: 150 },
      header: t('columns.usedBy'),
      enableSorting: false,
      cell: ({ row }) => <UsedByCell datasource={row.original} words={words} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const datasource = row.original;
        if (!canWrite || datasource.readOnly) return null;
        const isExternal = datasource.sourceType === 'EXTERNAL';

        return (
          <RowActions label={t('actionsFor', { name: datasource.name ?? '' })}>
            <DropdownMenuItem onSelect={() => actions.onAction({ kind: 'edit', datasource })}>{t('edit')}</DropdownMenuItem>
            {isExternal && !datasource.deactivated ? (
              <>
                <DropdownMenuItem onSelect={() => actions.onRefresh(datasource)}>{t('refresh')}</DropdownMenuItem>
                <DropdownMenuItem onSelect={() => actions.onClearCache(datasource)}>{t('clearCache')}</DropdownMenuItem>
              </>
            ) : null}
            {datasource.deactivated ? (
              <DropdownMenuItem onSelect={() => actions.onReactivate(datasource)}>{t('reactivate')}</DropdownMenuItem>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => actions.onAction({ kind: 'delete', datasource })}
            >
              {t('delete')}
            </DropdownMenuItem>
          </RowActions>
        );
      },
    },
  ];
}

/** Datasources belong to one tenant: like content, the page asks a switcher to choose one first. */
export function DatasourcesPage() {
  const t = useTranslations('datasources');

  return (
    <TenantRequired title={t('title')} description={t('description')} belongs={t('tenant.belongs')} purpose={t('tenant.purpose')}>
      <DatasourceList />
    </TenantRequired>
  );
}

function DatasourceList() {
  const t = useTranslations('datasources');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const me = useCurrentUser();
  const { tenant } = useTenant();
  const canWrite = hasRole(me.role, 'EDITOR');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update: updateList } = list;
  const query = useDatasources(
    { page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text, sourceType: params.sourceType },
    { refetchInterval: (page) => (isAwaitingRefresh(page) ? AWAITING_POLL_MS : false) },
  );
  // A page read after the last tick is its own "now": what it says happened did not happen in the future.
  const now = Math.max(useNow(), query.dataUpdatedAt);
  const { notice, show, clear } = useNotice();
  const { mutateAsync: refreshNow } = useRefreshDatasource();
  const { mutateAsync: clearCache } = useClearDatasourceCache();
  const { mutateAsync: update } = useUpdateDatasource();
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<RowAction | null>(null);
  const close = (open: boolean) => (open ? undefined : setAction(null));

  const columns = useMemo(() => {
    /** Runs a row's action and reports it above the list: its own words when it worked, the API's when it failed. */
    const report = async (work: () => Promise<Notice>) => {
      try {
        show(await work());
      } catch (error) {
        show({ tone: 'error', text: errorMessage(error) });
      }
    };

    return buildColumns({ t, label, format, now }, canWrite, {
      onAction: setAction,
      // A refresh that reached the server but failed answers the datasource with its `lastError`: that is the report.
      onRefresh: (d) =>
        void report(async () => {
          const result = await refreshNow(d.id);

          return result.lastError
            ? { tone: 'error', text: t('notice.refreshFailed', { name: d.name ?? '', error: result.lastError }) }
            : { tone: 'info', text: t('notice.refreshed', { name: d.name ?? '' }) };
        }),
      onClearCache: (d) =>
        void report(async () => {
          await clearCache(d.id);

          return { tone: 'info', text: t('notice.cacheCleared', { name: d.name ?? '' }) };
        }),
      onReactivate: (d) =>
        void report(async () => {
          await update({ id: d.id, body: { deactivated: false } });

          return { tone: 'info', text: t('notice.reactivated', { name: d.name ?? '' }) };
        }),
    });
  }, [t, label, format, now, canWrite, errorMessage, show, refreshNow, clearCache, update]);

  const newButton = (size?: 'sm') => (
    <Button size={size} onClick={() => setIsCreating(true)}>
      <PlusIcon className="size-4" />
      {t('new')}
    </Button>
  );

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
        actions={canWrite ? newButton() : null}
      />
      {canWrite ? (
        <>
          <DatasourceFormDialog open={isCreating} onOpenChange={setIsCreating} tenantName={tenant?.name} />
          <DatasourceFormDialog
            open={action?.kind === 'edit'}
            datasource={action?.kind === 'edit' ? action.datasource : null}
            onOpenChange={close}
          />
          <DeleteDatasourceDialog datasource={action?.kind === 'delete' ? action.datasource : null} onOpenChange={close} />
        </>
      ) : null}

      <ResourceList
        identity={{ name: 'datasources', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(d) => d.id}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        filters={
          <div className="shrink-0">
            <FilterSelect
              aria-label={t('filter.label')}
              value={params.sourceType}
              // The options are SOURCE_FILTERS: the value is one of them.
              onChange={(e) => updateList({ sourceType: e.target.value as SourceTypeFilter })}
            >
              {SOURCE_FILTERS.map((kind) => (
                <option key={kind} value={kind}>
                  {kind === 'all' ? t('filter.all') : label('datasourceSource', kind)}
                </option>
              ))}
            </FilterSelect>
          </div>
        }
        notices={<NoticeAlert notice={notice} onDismiss={clear} />}
        isFiltered={params.sourceType !== 'all'}
        onClearFilters={() => updateList({ sourceType: 'all' })}
        errorTitle={t('loadError')}
        empty={{
          icon: <DatabaseIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: canWrite ? newButton('sm') : null,
        }}
        filteredHint={t('filteredHint')}
      />
    </>
  );
}

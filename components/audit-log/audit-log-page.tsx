'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useId, useMemo } from 'react';
import { ArrowDownIcon, ArrowUpIcon, ClipboardIcon, DownloadIcon } from '@/components/ui/icons';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { UiElement } from '@/components/ui-profiles/ui-element';
import { auditLogCsvUrl, useAuditLog, useAuditLogScope, type AuditLogFilters } from '@/lib/api/audit-log';
import type { AuditEntry } from '@/lib/api/types';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { patternFilter, useListParams, type SortState, type UrlFilter } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The audit log's own filters in the URL beside the search and paging: a day range and the order. */
const FILTERS = {
  from: patternFilter('from', DAY),
  to: patternFilter('to', DAY),
  order: {
    key: 'order',
    parse: (raw) => (raw === 'asc' ? 'ASC' : 'DESC'),
    format: (value) => (value === 'ASC' ? 'asc' : null),
  } satisfies UrlFilter<AuditLogFilters['order']>,
};
/** Entries come in time order only: the order toggle, not the headers, changes it. */
const NOT_SORTABLE: readonly string[] = [];
const BY_TIME: SortState = { field: 'time', direction: 'desc' };

type Words = { t: Translate<'auditLog'>; label: Label; dateTime: (value: string) => string };

function buildColumns(allTenants: boolean, { t, label, dateTime }: Words): ColumnDef<AuditEntry>[] {
  const columns: ColumnDef<AuditEntry>[] = [
    {
      id: 'time',
      header: t('columns.time'),
      meta: { priority: 1, size: 170, className: 'whitespace-nowrap tabular-nums' },
      cell: ({ row }) => (
        <time className="text-zinc-600" dateTime={row.original.time}>
          {dateTime(row.original.time)}
        </time>
      ),
    },
    {
      id: 'level',
      meta: { priority: 3, size: 90 },
      header: t('columns.level'),
      cell: ({ row }) => <LevelBadge level={row.original.logLevel} label={label} />,
    },
    {
      id: 'message',
      meta: { size: 260 },
      header: t('columns.message'),
      cell: ({ row }) => (
        // A stored record in the words it was written in (English), not the console's: translators and checks leave it.
        <p translate="no" className="max-w-2xl break-words text-zinc-900">
          {row.original.message}
        </p>
      ),
    },
    {
      id: 'user',
      header: t('columns.user'),
      meta: { priority: 2, size: 160, className: 'whitespace-nowrap' },
      cell: ({ row }) => (
        <span className="text-zinc-600">
          <AuthorCell entry={row.original} />
        </span>
      ),
    },
  ];
  if (allTenants) {
    columns.push({
      id: 'tenant',
      header: t('columns.tenant'),
      meta: { priority: 4, size: 140, className: 'whitespace-nowrap' },
      cell: ({ row }) => (
        <span className="text-zinc-600">
          {row.original.customerName ?? (row.original.customerId != null ? `#${row.original.customerId}` : '—')}
        </span>
      ),
    });
  }

  return columns;
}

function LevelBadge({ level, label }: { level?: string | null; label: Label }) {
  if (!level) return null;
  const tone = level === 'ERROR' ? 'danger' : level === 'WARN' || level === 'WARNING' ? 'warning' : 'neutral';

  return <Badge tone={tone}>{label('logLevel', level)}</Badge>;
}

export function AuditLogPage() {
  const t = useTranslations('auditLog');
  const label = useLabel();
  const format = useFormat();
  const { tenant } = useTenant();
  const list = useListParams({ defaultSort: BY_TIME, sortable: NOT_SORTABLE, filters: FILTERS });
  const { params, update } = list;
  // Without a chosen tenant every entry shows which tenant it is of.
  const { scope, allTenants } = useAuditLogScope();
  const filters: AuditLogFilters = { text: params.text, from: params.from, to: params.to, order: params.order };
  const query = useAuditLog({ ...filters, page: params.page, size: params.size });
  const columns = useMemo(() => buildColumns(allTenants, { t, label, dateTime: format.dateTime }), [allTenants, t, label, format]);
  const fromId = useId();
  const toId = useId();
  const rangeInvalid = Boolean(params.from && params.to && params.from > params.to);

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          tenant
            ? t.rich('descriptionTenant', {
                tenant: tenant.name,
                em: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
              })
            : allTenants
              ? t('descriptionAllTenants')
              : t('description')
        }
        actions={
          <UiElement name="newUi.auditLog.export">
            <Button variant="secondary" asChild>
              <a href={auditLogCsvUrl(filters, scope)} download>
                <DownloadIcon className="size-4" />
                {t('exportCsv')}
              </a>
            </Button>
          </UiElement>
        }
      />

      <ResourceList
        identity={{ name: 'audit', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(entry, index) => `${entry.time}-${index}`}
        sortable={NOT_SORTABLE}
        search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
        filters={
          <>
            <div className="flex items-end gap-2">
              <div className="space-y-1">
                <label htmlFor={fromId} className="block text-xs font-medium text-zinc-500">
                  {t('from')}
                </label>
                <Input
                  id={fromId}
                  type="date"
                  className="w-40"
                  value={params.from}
                  max={params.to || undefined}
                  onChange={(e) => update({ from: e.target.value })}
                />
              </div>
              <div className="space-y-1">
                <label htmlFor={toId} className="block text-xs font-medium text-zinc-500">
                  {t('to')}
                </label>
                <Input
                  id={toId}
                  type="date"
                  className="w-40"
                  value={params.to}
                  min={params.from || undefined}
                  onChange={(e) => update({ to: e.target.value })}
                />
              </div>
            </div>
            <Button
              variant="secondary"
              onClick={() => update({ order: params.order === 'DESC' ? 'ASC' : 'DESC' })}
              aria-label={params.order === 'DESC' ? t('showOldestFirst') : t('showNewestFirst')}
            >
              {params.order === 'DESC' ? <ArrowDownIcon className="size-4" /> : <ArrowUpIcon className="size-4" />}
              {params.order === 'DESC' ? t('newestFirst') : t('oldestFirst')}
            </Button>
            {params.text.trim() || params.from || params.to ? (
              <Button variant="ghost" onClick={() => update({ text: '', from: '', to: '' })}>
                {t('clearFilters')}
              </Button>
            ) : null}
          </>
        }
        notices={rangeInvalid ? <Alert>{t('rangeInvalid')}</Alert> : null}
        isFiltered={Boolean(params.from || params.to)}
        onClearFilters={() => update({ text: '', from: '', to: '' })}
        errorTitle={t('loadError')}
        empty={{ icon: <ClipboardIcon className="size-5 text-zinc-500" />, title: t('emptyTitle'), body: t('emptyText') }}
        filteredHint={t('filteredHint')}
        rowClassName="align-top"
      />
    </>
  );
}

/** Who wrote the entry: a user by e-mail, a device, a webhook API key or a job by name, else the system. */
function AuthorCell({ entry }: { entry: AuditEntry }) {
  const t = useTranslations('auditLog');
  const label = useLabel();
  if (entry.userEmail) return <>{entry.userEmail}</>;
  if (entry.actorKind === 'device' && entry.deviceName)
    return <>{t('actor', { kind: label('actorKind', 'device'), name: entry.deviceName })}</>;
  if (entry.actorKind === 'apiKey' && entry.actorName)
    return <>{t('actor', { kind: label('actorKind', 'apiKey'), name: entry.actorName })}</>;

  return (
    <span className="text-zinc-400">
      {label('actorKind', 'system')}
      {entry.actorKind === 'system' && entry.actorName ? <span className="text-zinc-500"> · {entry.actorName}</span> : null}
    </span>
  );
}

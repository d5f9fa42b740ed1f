'use client';

import type { ColumnDef } from '@tanstack/react-table';
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
import { formatDateTime } from '@/lib/format';
import { patternFilter, useListParams, type SortState, type UrlFilter } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The audit log's own filters in the URL beside the search and paging: a day range and the order. */
const FILTERS = {
  from: patternFilter('from', DAY),
  to: patternFilter('to', DAY),
  order: { key: 'order', parse: (raw) => (raw === 'asc' ? 'ASC' : 'DESC'), format: (value) => (value === 'ASC' ? 'asc' : null) } satisfies UrlFilter<AuditLogFilters['order']>,
};
/** Entries come in time order only: the order toggle, not the headers, changes it. */
const NOT_SORTABLE: readonly string[] = [];
const BY_TIME: SortState = { field: 'time', direction: 'desc' };

function buildColumns(allTenants: boolean): ColumnDef<AuditEntry>[] {
  const columns: ColumnDef<AuditEntry>[] = [
    {
      id: 'time',
      header: 'Time',
      meta: { priority: 1, size: 170, className: 'whitespace-nowrap tabular-nums' },
      cell: ({ row }) => (
        <time className="text-zinc-600" dateTime={row.original.time}>
          {formatDateTime(row.original.time)}
        </time>
      ),
    },
    { id: 'level', meta: { priority: 3, size: 90 }, header: 'Level', cell: ({ row }) => <LevelBadge level={row.original.logLevel} /> },
    { id: 'message', meta: { size: 260 }, header: 'Message', cell: ({ row }) => <p className="max-w-2xl break-words text-zinc-900">{row.original.message}</p> },
    { id: 'user', header: 'User', meta: { priority: 2, size: 160, className: 'whitespace-nowrap' }, cell: ({ row }) => <span className="text-zinc-600"><AuthorCell entry={row.original} /></span> },
  ];
  if (allTenants) {
    columns.push({
      id: 'tenant',
      header: 'Tenant',
      meta: { priority: 4, size: 140, className: 'whitespace-nowrap' },
      cell: ({ row }) => <span className="text-zinc-600">{row.original.customerName ?? (row.original.customerId != null ? `#${row.original.customerId}` : '—')}</span>,
    });
  }

  return columns;
}

function LevelBadge({ level }: { level?: string | null }) {
  if (!level) return null;
  const tone = level === 'ERROR' ? 'danger' : level === 'WARN' || level === 'WARNING' ? 'warning' : 'neutral';

  return <Badge tone={tone}>{level}</Badge>;
}

export function AuditLogPage() {
  const { tenant } = useTenant();
  const list = useListParams({ defaultSort: BY_TIME, sortable: NOT_SORTABLE, filters: FILTERS });
  const { params, update } = list;
  // Without a chosen tenant every entry shows which tenant it is of.
  const { scope, allTenants } = useAuditLogScope();
  const filters: AuditLogFilters = { text: params.text, from: params.from, to: params.to, order: params.order };
  const query = useAuditLog({ ...filters, page: params.page, size: params.size });
  const columns = useMemo(() => buildColumns(allTenants), [allTenants]);
  const fromId = useId();
  const toId = useId();
  const rangeInvalid = Boolean(params.from && params.to && params.from > params.to);

  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          tenant ? (
            <>
              Every change made in <span className="font-medium text-zinc-700">{tenant.name}</span>, and who made it.
            </>
          ) : allTenants ? (
            'Every change across all tenants, and who made it.'
          ) : (
            'Every change, and who made it.'
          )
        }
        actions={
          <UiElement name="newUi.auditLog.export">
            <Button variant="secondary" asChild>
              <a href={auditLogCsvUrl(filters, scope)} download>
                <DownloadIcon className="size-4" />
                Export CSV
              </a>
            </Button>
          </UiElement>
        }
      />

      <ResourceList
        identity={{ name: 'audit', noun: { one: 'entry', other: 'entries' } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(entry, index) => `${entry.time}-${index}`}
        sortable={NOT_SORTABLE}
        search={{ label: 'Search the audit log', placeholder: 'Search messages, users…' }}
        filters={
          <>
            <div className="flex items-end gap-2">
              <div className="space-y-1">
                <label htmlFor={fromId} className="block text-xs font-medium text-zinc-500">
                  From
                </label>
                <Input id={fromId} type="date" className="w-40" value={params.from} max={params.to || undefined} onChange={(e) => update({ from: e.target.value })} />
              </div>
              <div className="space-y-1">
                <label htmlFor={toId} className="block text-xs font-medium text-zinc-500">
                  To
                </label>
                <Input id={toId} type="date" className="w-40" value={params.to} min={params.from || undefined} onChange={(e) => update({ to: e.target.value })} />
              </div>
            </div>
            <Button
              variant="secondary"
              onClick={() => update({ order: params.order === 'DESC' ? 'ASC' : 'DESC' })}
              aria-label={params.order === 'DESC' ? 'Newest first. Show oldest first' : 'Oldest first. Show newest first'}
            >
              {params.order === 'DESC' ? <ArrowDownIcon className="size-4" /> : <ArrowUpIcon className="size-4" />}
              {params.order === 'DESC' ? 'Newest first' : 'Oldest first'}
            </Button>
            {params.text.trim() || params.from || params.to ? (
              <Button variant="ghost" onClick={() => update({ text: '', from: '', to: '' })}>
                Clear filters
              </Button>
            ) : null}
          </>
        }
        notices={rangeInvalid ? <Alert>The “From” day is after the “To” day.</Alert> : null}
        isFiltered={Boolean(params.from || params.to)}
        onClearFilters={() => update({ text: '', from: '', to: '' })}
        errorTitle="The audit log could not be loaded."
        empty={{ icon: <ClipboardIcon className="size-5 text-zinc-500" />, title: 'No entries yet', body: 'Changes appear here as they are made.' }}
        filteredHint="Try another search or a wider date range."
        rowClassName="align-top"
      />
    </>
  );
}

/** Who wrote the entry: a user by e-mail, a device, a webhook API key or a job by name, else the system. */
function AuthorCell({ entry }: { entry: AuditEntry }) {
  if (entry.userEmail) return <>{entry.userEmail}</>;
  if (entry.actorKind === 'device' && entry.deviceName) return <>Screen {entry.deviceName}</>;
  if (entry.actorKind === 'apiKey' && entry.actorName) return <>API key {entry.actorName}</>;

  return (
    <span className="text-zinc-400">
      System{entry.actorKind === 'system' && entry.actorName ? <span className="text-zinc-500"> · {entry.actorName}</span> : null}
    </span>
  );
}

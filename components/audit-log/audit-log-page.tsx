'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useId, useMemo } from 'react';
import { ArrowDownIcon, ArrowUpIcon, ClipboardIcon, DownloadIcon } from '@/components/ui/icons';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/data-table';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { UiElement } from '@/components/ui-profiles/ui-element';
import { auditLogCsvUrl, useAuditLog, useAuditLogScope, type AuditLogParams } from '@/lib/api/audit-log';
import type { AuditEntry } from '@/lib/api/types';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { PAGE_SIZES } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Filters, order and page live in the URL so a view can be shared and reloaded. */
function useAuditLogParams() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const params = useMemo<AuditLogParams>(() => {
    const page = Number.parseInt(searchParams.get('page') ?? '', 10);
    const size = Number.parseInt(searchParams.get('size') ?? '', 10);
    const from = searchParams.get('from') ?? '';
    const to = searchParams.get('to') ?? '';

    return {
      page: Number.isFinite(page) && page > 0 ? page : 0,
      size: (PAGE_SIZES as readonly number[]).includes(size) ? size : 20,
      text: searchParams.get('q') ?? '',
      from: DAY.test(from) ? from : '',
      to: DAY.test(to) ? to : '',
      order: searchParams.get('order') === 'asc' ? 'ASC' : 'DESC',
    };
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<AuditLogParams>) => {
      const merged = { ...params, ...patch };
      if (!('page' in patch)) merged.page = 0;
      const next = new URLSearchParams(searchParams);
      const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
      set('page', merged.page > 0 ? String(merged.page) : null);
      set('size', merged.size !== 20 ? String(merged.size) : null);
      set('q', merged.text.trim() ? merged.text : null);
      set('from', merged.from || null);
      set('to', merged.to || null);
      set('order', merged.order === 'ASC' ? 'asc' : null);
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, searchParams, router, pathname],
  );

  return { params, update };
}

function LevelBadge({ level }: { level?: string | null }) {
  if (!level) return null;
  const tone =
    level === 'ERROR' ? 'bg-red-50 text-red-700 ring-red-200' : level === 'WARN' || level === 'WARNING' ? 'bg-amber-50 text-amber-800 ring-amber-200' : undefined;

  return <Badge className={tone}>{level}</Badge>;
}

export function AuditLogPage() {
  const { tenant } = useTenant();
  const { params, update } = useAuditLogParams();
  // Without a chosen tenant every entry shows which tenant it is of.
  const { scope, allTenants } = useAuditLogScope();
  const query = useAuditLog(params, scope);
  const fromId = useId();
  const toId = useId();
  const entries = query.data?.content ?? [];
  const hasFilters = Boolean(params.text.trim() || params.from || params.to);
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
              <a href={auditLogCsvUrl(params, scope)} download>
                <DownloadIcon className="size-4" />
                Export CSV
              </a>
            </Button>
          </UiElement>
        }
      />

      <div className="space-y-4">
          <div className="flex flex-wrap items-end gap-3">
            <SearchInput label="Search the audit log" placeholder="Search messages, users…" value={params.text} onChange={(text) => update({ text })} />
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
            {hasFilters ? (
              <Button variant="ghost" onClick={() => update({ text: '', from: '', to: '' })}>
                Clear filters
              </Button>
            ) : null}
            {query.isFetching && !query.isPending ? (
              <span className="ml-auto flex items-center gap-2 self-center text-sm text-zinc-500">
                <Spinner /> Updating…
              </span>
            ) : null}
          </div>

          {rangeInvalid ? <Alert>The “From” day is after the “To” day.</Alert> : null}
          {query.isError ? (
            <LoadError title="The audit log could not be loaded." error={query.error} onRetry={() => void query.refetch()} />
          ) : null}

          <Card className="overflow-hidden">
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" aria-busy={query.isFetching} aria-describedby="audit-summary">
                <thead className="border-b border-zinc-200 bg-zinc-50/80">
                  <tr>
                    {['Time', 'Level', 'Message', 'User', ...(allTenants ? ['Tenant'] : [])].map((h) => (
                      <th key={h} scope="col" className="px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className={cn('divide-y divide-zinc-100', query.isPlaceholderData && 'opacity-60 transition-opacity')}>
                  {query.isPending
                    ? Array.from({ length: 6 }, (_, i) => (
                        <tr key={i} aria-hidden="true">
                          {[30, 15, 70, 35, ...(allTenants ? [25] : [])].map((w, j) => (
                            <td key={j} className="px-4 py-3.5">
                              <span className="block h-4 animate-pulse rounded bg-zinc-100" style={{ width: `${w + ((i * 7) % 20)}%` }} />
                            </td>
                          ))}
                        </tr>
                      ))
                    : entries.map((entry, i) => (
                        <tr key={`${entry.time}-${i}`} className="align-top hover:bg-zinc-50/60">
                          <td className="px-4 py-3 whitespace-nowrap text-zinc-600 tabular-nums">
                            <time dateTime={entry.time}>{formatDateTime(entry.time)}</time>
                          </td>
                          <td className="px-4 py-3">
                            <LevelBadge level={entry.logLevel} />
                          </td>
                          <td className="px-4 py-3 text-zinc-900">
                            <p className="max-w-2xl break-words">{entry.message}</p>
                          </td>
                          <td className="px-4 py-3 whitespace-nowrap text-zinc-600">
                            <AuthorCell entry={entry} />
                          </td>
                          {allTenants ? (
                            <td className="px-4 py-3 whitespace-nowrap text-zinc-600">
                              {entry.customerName ?? (entry.customerId != null ? `#${entry.customerId}` : '—')}
                            </td>
                          ) : null}
                        </tr>
                      ))}
                </tbody>
              </table>
            </div>
            {query.isSuccess && entries.length === 0 ? (
              <EmptyState testId="audit-empty" icon={<ClipboardIcon className="size-5 text-zinc-500" />} title={hasFilters ? 'No entries match these filters' : 'No entries yet'}>
                <p className="mt-1 text-sm text-zinc-500">{hasFilters ? 'Try another search or a wider date range.' : 'Changes appear here as they are made.'}</p>
              </EmptyState>
            ) : null}
            {query.data && query.data.totalElements > 0 ? (
              <Pagination
                id="audit-summary"
                page={query.data.number}
                size={query.data.size}
                totalElements={query.data.totalElements}
                totalPages={query.data.totalPages}
                noun={{ one: 'entry', other: 'entries' }}
                onPageChange={(page) => update({ page })}
                onSizeChange={(size) => update({ size })}
              />
            ) : (
              <span id="audit-summary" className="sr-only">
                {query.isPending ? 'Loading entries' : 'No entries'}
              </span>
            )}
          </Card>
        </div>
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

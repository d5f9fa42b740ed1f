'use client';

import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { BarChart } from '@/components/reports/bar-chart';
import { TenantRequired } from '@/components/shell/tenant-required';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, EmptyState } from '@/components/ui/data-table';
import { FilterSelect } from '@/components/ui/field';
import { CheckIcon, CopyIcon, DownloadIcon, PlayIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { SearchInput } from '@/components/ui/search-input';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { advertiserResource } from '@/lib/api/advertisers';
import { channelResource } from '@/lib/api/campaigns';
import { deviceGroupResource, useDeviceRoot } from '@/lib/api/device-groups';
import { deviceResource } from '@/lib/api/devices';
import { downloadReportCsv, useProofOfPlayReport, useReportTenant, type ReportRow } from '@/lib/api/proof-of-play';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { groupHref } from '@/lib/reports/group-links';
import {
  browserTimeZone,
  defaultReportState,
  exceedsThreeMonths,
  formatPlayTime,
  GROUP_BYS,
  periodLabel,
  periodStarts,
  playsPerPeriod,
  readReportState,
  REPORT_SORT_FIELDS,
  requestOf,
  RESOLUTIONS,
  SUBJECT_TYPES,
  writeReportState,
  type ReportState,
} from '@/lib/reports/report-params';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { cn } from '@/lib/cn';

/** Rows the page shows at most; the CSV has them all. */
const ROW_LIMIT = 1000;

/** The report's state, read from and written to the URL query (defaults left out). */
function useReportState() {
  const search = useSearchParams();
  // Today and the browser's zone, fixed for the page's life so the defaults (and the query key) stay put.
  const [defaults] = useState(() => defaultReportState(browserTimeZone(), Date.now()));
  const state = useMemo(() => readReportState(search, defaults), [search, defaults]);
  const replaceQuery = useReplaceQuery();
  const update = (patch: Partial<ReportState>) =>
    replaceQuery((current) => writeReportState({ ...readReportState(current, defaults), ...patch }, defaults));

  /** Spells the whole state out in the address (range and zone too), so the link means the same anywhere. */
  const spellOut = () => replaceQuery(() => writeReportState(state, defaults, { complete: true }));

  return { state, defaults, update, spellOut };
}

function Control({ label, htmlFor, children, className }: { label: string; htmlFor: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={htmlFor} className="block text-xs font-medium text-zinc-500">
        {label}
      </label>
      {children}
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="mt-0.5 text-xl font-semibold text-zinc-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function buildColumns(
  t: Translate<'reports.columns'>,
  format: ReturnType<typeof useFormat>,
  groupLabel: string,
  showPeriod: boolean,
): ColumnDef<ReportRow>[] {
  const number = (value: number) => format.number(value);
  const columns: ColumnDef<ReportRow>[] = [];
  if (showPeriod) {
    columns.push({
      id: 'timestamp',
      accessorFn: (r) => r.timestamp,
      header: t('period'),
      meta: { priority: 1, size: 150, className: 'whitespace-nowrap tabular-nums' },
      cell: ({ row }) => row.original.readableDateTime,
    });
  }
  columns.push(
    {
      id: 'name',
      accessorFn: (r) => r.groupBy.name,
      header: groupLabel,
      meta: { size: 180, className: 'w-full' },
      cell: ({ row }) => {
        const group = row.original.groupBy;
        const name = group.name ?? (group.id !== null ? `#${group.id}` : '—');
        const href = groupHref(group);

        return href ? (
          <Link href={href} className="text-brand-700 hover:underline">
            {name}
          </Link>
        ) : (
          <span className="text-zinc-900">{name}</span>
        );
      },
    },
    {
      id: 'impressionStartCount',
      accessorFn: (r) => r.impressionStartCount,
      header: t('plays'),
      meta: { priority: 2, size: 90, className: 'text-right tabular-nums' },
      cell: ({ row }) => number(row.original.impressionStartCount),
    },
    {
      id: 'impressionEndCount',
      accessorFn: (r) => r.impressionEndCount,
      header: t('completed'),
      meta: { priority: 4, size: 110, className: 'text-right tabular-nums' },
      cell: ({ row }) => number(row.original.impressionEndCount),
    },
    {
      id: 'duration',
      accessorFn: (r) => r.duration,
      header: t('playTime'),
      meta: { priority: 3, size: 110, className: 'text-right whitespace-nowrap tabular-nums' },
      cell: ({ row }) => formatPlayTime(row.original.duration, format.locale),
    },
    {
      id: 'clickCount',
      accessorFn: (r) => r.clickCount,
      header: t('clicks'),
      meta: { priority: 5, size: 90, className: 'text-right tabular-nums' },
      cell: ({ row }) => number(row.original.clickCount),
    },
    {
      id: 'viewerCount',
      accessorFn: (r) => r.viewerCount,
      header: t('viewers'),
      meta: { priority: 6, size: 90, className: 'text-right tabular-nums' },
      cell: ({ row }) => number(row.original.viewerCount),
    },
  );

  return columns;
}

/** Column ids are the API's sort fields. */
const SORTABLE: readonly string[] = REPORT_SORT_FIELDS;

/**
 * The proof-of-play report (spec 3 "Reporting"): plays in a range of local days in a time zone (the
 * browser's unless chosen), per period and per screen, content, file, channel, folder or advertiser, for all
 * of a kind or narrowed to one channel or screen; a chart of plays per period, the rows, and the same rows
 * as CSV. Everything is in the URL, so "Copy link" shares this very report.
 */
export function ReportPage() {
  const t = useTranslations('reports');

  return (
    <TenantRequired title={t('title')} description={t('description')} belongs={t('belongs')} purpose={t('purpose')}>
      <Report />
    </TenantRequired>
  );
}

function Report() {
  const t = useTranslations('reports');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const { state, defaults, update, spellOut } = useReportState();
  const customerId = useReportTenant();
  const tooLong = state.from <= state.to && exceedsThreeMonths(state.from, state.to);
  const reversed = state.from > state.to;
  const request = useMemo(() => (tooLong || reversed ? null : { ...requestOf(state), limit: ROW_LIMIT }), [state, tooLong, reversed]);
  const report = useProofOfPlayReport(request);
  const rows = useMemo(() => report.data?.rows ?? [], [report.data]);
  const channels = channelResource.useList({ page: 0, size: 200, sort: 'name,asc', text: '' });
  const screens = deviceResource.useList({ page: 0, size: 200, sort: 'name,asc', text: '', status: 'all' });
  const [copied, setCopied] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const advertisers = advertiserResource.useList({ page: 0, size: 200, sort: 'name,asc', text: '' });
  const folderRoot = useDeviceRoot();
  const folder = deviceGroupResource.useDetail(state.folder || null, { select: 'name,parentId' });
  const [pickingFolder, setPickingFolder] = useState(false);
  const ids = {
    on: useId(),
    from: useId(),
    to: useId(),
    tz: useId(),
    groupBy: useId(),
    channel: useId(),
    screen: useId(),
    folder: useId(),
    advertiser: useId(),
  };

  const starts = useMemo(() => (request ? periodStarts(request, request.timeZone, request.resolution) : []), [request]);
  const series = useMemo(() => playsPerPeriod(rows, starts), [rows, starts]);
  const totals = useMemo(
    () =>
      rows.reduce(
        (t, r) => ({
          plays: t.plays + r.impressionStartCount,
          completed: t.completed + r.impressionEndCount,
          duration: t.duration + r.duration,
        }),
        { plays: 0, completed: 0, duration: 0 },
      ),
    [rows],
  );
  const columnWords = useTranslations('reports.columns');
  const groupLabel = label('groupBy', state.groupBy);
  const columns = useMemo(
    () => buildColumns(columnWords, format, groupLabel, state.resolution !== 'TOTAL'),
    [columnWords, format, groupLabel, state.resolution],
  );
  // The order is the API's (`sort`), kept in the URL; a header click asks for the new one.
  const sorting = useMemo<SortingState>(() => {
    const [field, direction] = state.sort.split(',');

    return field ? [{ id: field, desc: direction === 'desc' }] : [];
  }, [state.sort]);
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row, i) => `${row.timestamp}-${row.groupBy.id}-${i}`,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    enableSortingRemoval: true,
    // Counts read best largest first.
    sortDescFirst: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const first = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      update({ sort: first ? `${first.id},${first.desc ? 'desc' : 'asc'}` : '' });
    },
  });

  const copyLink = async () => {
    const query = writeReportState(state, defaults, { complete: true }).toString();
    await navigator.clipboard.writeText(`${window.location.origin}${window.location.pathname}?${query}`).catch(() => undefined);
    // The address becomes that link too, so it can be copied from the address bar.
    spellOut();
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  const download = async () => {
    if (!request || customerId === undefined) return;
    setDownloadError(null);
    setDownloading(true);
    try {
      await downloadReportCsv({ ...request, limit: undefined }, customerId);
    } catch (e) {
      setDownloadError(errorMessage(e));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <Button variant="secondary" onClick={() => void copyLink()}>
              {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
              {copied ? t('linkCopied') : t('copyLink')}
            </Button>
            <Button variant="secondary" onClick={() => void download()} disabled={!request || downloading}>
              <DownloadIcon className="size-4" />
              {t('downloadCsv')}
            </Button>
          </>
        }
      />

      <Card className="mb-4 p-4">
        <div className="flex flex-wrap items-end gap-3">
          <Control label={t('controls.playsOf')} htmlFor={ids.on}>
            <FilterSelect
              id={ids.on}
              value={state.on}
              onChange={(e) => update({ on: e.target.value as ReportState['on'], groupBy: undefined })}
              disabled={Boolean(state.channel || state.screen)}
            >
              {state.channel || state.screen ? (
                // A chosen channel or screen is what the report is of.
                <option value={state.on}>{state.channel ? t('controls.chosenChannel') : t('controls.chosenScreen')}</option>
              ) : (
                SUBJECT_TYPES.map((subject) => (
                  <option key={subject} value={subject}>
                    {label('reportSubject', subject)}
                  </option>
                ))
              )}
            </FilterSelect>
          </Control>
          <Control label={t('controls.from')} htmlFor={ids.from}>
            <Input
              id={ids.from}
              type="date"
              className="w-40"
              value={state.from}
              max={state.to}
              onChange={(e) => e.target.value && update({ from: e.target.value })}
            />
          </Control>
          <Control label={t('controls.to')} htmlFor={ids.to}>
            <Input
              id={ids.to}
              type="date"
              className="w-40"
              value={state.to}
              min={state.from}
              onChange={(e) => e.target.value && update({ to: e.target.value })}
            />
          </Control>
          <Control label={t('controls.timeZone')} htmlFor={ids.tz}>
            <FilterSelect id={ids.tz} value={state.tz} onChange={(e) => update({ tz: e.target.value })}>
              <TimeZoneOptions current={state.tz} marked={{ [defaults.tz]: t('controls.yours') }} />
            </FilterSelect>
          </Control>
          <div className="space-y-1">
            <span className="block text-xs font-medium text-zinc-500" id={`${ids.on}-resolution`}>
              {t('controls.resolution')}
            </span>
            <div role="group" aria-labelledby={`${ids.on}-resolution`} className="inline-flex h-9 rounded-md ring-1 ring-zinc-300">
              {RESOLUTIONS.map((r) => (
                <button
                  key={r}
                  type="button"
                  aria-pressed={r === state.resolution}
                  onClick={() => update({ resolution: r })}
                  className={cn(
                    'px-3 text-sm font-medium first:rounded-l-md last:rounded-r-md',
                    r === state.resolution ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-50',
                  )}
                >
                  {label('resolution', r)}
                </button>
              ))}
            </div>
          </div>
          <Control label={t('controls.groupBy')} htmlFor={ids.groupBy}>
            <FilterSelect
              id={ids.groupBy}
              value={state.groupBy}
              onChange={(e) => update({ groupBy: e.target.value as ReportState['groupBy'] })}
            >
              {GROUP_BYS.map((g) => (
                <option key={g} value={g}>
                  {label('groupBy', g)}
                </option>
              ))}
            </FilterSelect>
          </Control>
        </div>
        <div className="mt-3 flex flex-wrap items-end gap-3 border-t border-zinc-100 pt-3">
          <Control label={t('controls.channel')} htmlFor={ids.channel}>
            <FilterSelect id={ids.channel} value={state.channel} onChange={(e) => update({ channel: e.target.value, screen: '' })}>
              <option value="">{t('controls.anyChannel')}</option>
              {state.channel && !(channels.data?.content ?? []).some((c) => String(c.id) === state.channel) ? (
                <option value={state.channel}>{t('controls.channelId', { id: state.channel })}</option>
              ) : null}
              {(channels.data?.content ?? []).map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </FilterSelect>
          </Control>
          <Control label={t('controls.screen')} htmlFor={ids.screen}>
            <FilterSelect id={ids.screen} value={state.screen} onChange={(e) => update({ screen: e.target.value, channel: '' })}>
              <option value="">{t('controls.anyScreen')}</option>
              {state.screen && !(screens.data?.content ?? []).some((d) => d.id === state.screen) ? (
                <option value={state.screen}>{t('controls.thisScreen')}</option>
              ) : null}
              {(screens.data?.content ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name || t('controls.unnamedScreen')}
                </option>
              ))}
            </FilterSelect>
          </Control>
          <Control label={t('controls.folder')} htmlFor={ids.folder}>
            <Button
              id={ids.folder}
              variant="secondary"
              className="w-52 justify-start truncate"
              onClick={() => setPickingFolder(true)}
              data-testid="report-folder"
            >
              {state.folder ? (folder.data?.name ?? t('controls.aFolder')) : t('controls.allFolders')}
            </Button>
          </Control>
          <Control label={t('controls.advertiser')} htmlFor={ids.advertiser}>
            <FilterSelect id={ids.advertiser} value={state.advertiser} onChange={(e) => update({ advertiser: e.target.value })}>
              <option value="">{t('controls.anyAdvertiser')}</option>
              {state.advertiser && !(advertisers.data?.content ?? []).some((a) => a.id === state.advertiser) ? (
                <option value={state.advertiser}>{t('controls.thisAdvertiser')}</option>
              ) : null}
              {(advertisers.data?.content ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </FilterSelect>
          </Control>
          <SearchInput
            value={state.q}
            onChange={(q) => update({ q })}
            label={t('controls.searchNames', { groupBy: state.groupBy })}
            placeholder={t('controls.namePlaceholder', { group: groupLabel })}
            className="sm:w-64"
          />
          {state.channel || state.screen || state.folder || state.advertiser || state.q ? (
            <Button variant="ghost" onClick={() => update({ channel: '', screen: '', folder: '', advertiser: '', q: '' })}>
              {t('controls.clearFilters')}
            </Button>
          ) : null}
        </div>
      </Card>

      <Dialog open={pickingFolder} onOpenChange={setPickingFolder}>
        <DialogContent title={t('controls.folder')} description={t('controls.folderDescription')}>
          <div className="max-h-80 overflow-y-auto px-3 pb-4">
            {folderRoot.data ? (
              <DeviceFolderTree
                root={folderRoot.data}
                selectedId={state.folder || folderRoot.data.id}
                openPath={[]}
                onSelect={(f) => {
                  update({ folder: f.parentId == null ? '' : f.id });
                  setPickingFolder(false);
                }}
              />
            ) : null}
          </div>
        </DialogContent>
      </Dialog>

      {reversed ? <Alert className="mb-4">{t('reversed')}</Alert> : null}
      {tooLong ? <Alert className="mb-4">{t('tooLong')}</Alert> : null}
      {downloadError ? (
        <Alert className="mb-4" title={t('downloadError')}>
          {downloadError}
        </Alert>
      ) : null}
      {report.isError ? (
        <LoadError className="mb-4" title={t('loadError')} error={report.error} onRetry={() => void report.refetch()} />
      ) : null}

      {request && !report.isError ? (
        <>
          <Card className="mb-4 p-5">
            <dl className="mb-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
              <Figure label={t('figures.plays')} value={report.isPending ? '…' : format.number(totals.plays)} testId="report-plays" />
              <Figure
                label={t('figures.completed')}
                value={report.isPending ? '…' : format.number(totals.completed)}
                testId="report-completed"
              />
              <Figure
                label={t('figures.playTime')}
                value={report.isPending ? '…' : formatPlayTime(totals.duration, format.locale)}
                testId="report-duration"
              />
              <Figure label={t('figures.rows')} value={report.isPending ? '…' : format.number(rows.length)} testId="report-rows" />
            </dl>
            {starts.length > 1 ? (
              <BarChart
                width={1100}
                height={220}
                label={t('chartLabel', { resolution: state.resolution, zone: state.tz })}
                bars={series.map((p) => ({
                  key: p.at,
                  label: periodLabel(p.at, state.tz, state.resolution, { locale: format.locale }),
                  value: p.plays,
                }))}
              />
            ) : null}
            <p className="mt-2 text-xs text-zinc-500">
              {t('periodsStart', { zone: state.tz, weekly: state.resolution === 'WEEKLY' ? 'yes' : 'no' })}
            </p>
          </Card>

          <Card className="overflow-hidden">
            {rows.length === 0 && !report.isPending ? (
              <EmptyState icon={<PlayIcon className="size-5 text-zinc-500" />} title={t('emptyTitle')} testId="report-empty">
                <p className="mt-1 text-sm text-zinc-500">{t('emptyText')}</p>
              </EmptyState>
            ) : (
              <DataTable
                table={table}
                sortable={SORTABLE}
                isFirstLoad={report.isPending}
                isFetching={report.isFetching}
                isPlaceholderData={report.isPlaceholderData}
                describedBy=""
              />
            )}
            {rows.length >= ROW_LIMIT ? (
              <p className="border-t border-zinc-100 px-4 py-2 text-sm text-zinc-500">{t('rowLimit', { count: ROW_LIMIT })}</p>
            ) : null}
          </Card>
        </>
      ) : null}
    </>
  );
}

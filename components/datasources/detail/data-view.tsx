'use client';

import { useTranslations } from 'next-intl';
import { useMemo, useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ExternalIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';
import { objectColumns, valueText, type DataShape, type EventRow, type FeedRow } from './data-shapes';

/*
 * The data of a datasource, read-only, in the form its structure suggests (data-shapes.ts decides which). Everything
 * shown comes from the datasource, not from the console: it is marked translate="no" and written as text.
 */

/** Rows of a table or list per page: a long document stays quick to draw. */
export const ROWS_PER_PAGE = 50;
/** A JSON document longer than this many lines opens folded. */
const JSON_FOLD_LINES = 25;

const cellClass = 'max-w-80 truncate px-3 py-2 align-top';
const headClass = 'px-3 py-2 text-left text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500';

/** Previous and next page of a long list; nothing when it fits one page. */
export function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const t = useTranslations('datasourceData.view');
  const pages = Math.ceil(total / ROWS_PER_PAGE);
  if (pages <= 1) return null;

  return (
    <div className="flex items-center justify-end gap-2 border-t border-zinc-100 px-3 py-2 text-sm text-zinc-600">
      <span>
        {t('rowsShown', {
          from: page * ROWS_PER_PAGE + 1,
          to: Math.min(total, (page + 1) * ROWS_PER_PAGE),
          total,
        })}
      </span>
      <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('previous')}
      </Button>
      <Button variant="secondary" size="sm" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        {t('next')}
      </Button>
    </div>
  );
}

function usePage<T>(items: readonly T[]) {
  const [page, setPage] = useState(0);
  const last = Math.max(0, Math.ceil(items.length / ROWS_PER_PAGE) - 1);
  // The data shrank under an open page (a refresh): show its last page.
  const current = Math.min(page, last);

  return { page: current, setPage, shown: items.slice(current * ROWS_PER_PAGE, (current + 1) * ROWS_PER_PAGE) };
}

function Cell({ value }: { value: unknown }) {
  const text = valueText(value);

  return (
    <td className={cn(cellClass, typeof value === 'number' && 'text-right tabular-nums')} title={text.length > 40 ? text : undefined}>
      {text}
    </td>
  );
}

function TableOf({ label, columns, rows }: { label: string; columns: readonly string[]; rows: ReadonlyArray<Record<string, unknown>> }) {
  const { page, setPage, shown } = usePage(rows);
  const t = useTranslations('datasourceData.view');

  return (
    <div>
      <div className="relative overflow-x-auto">
        <table className="w-full text-sm" aria-label={label}>
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className={headClass} translate="no">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 text-zinc-800" translate="no">
            {shown.map((row, i) => (
              <tr key={page * ROWS_PER_PAGE + i}>
                {columns.map((column) => (
                  <Cell key={column} value={Object.hasOwn(row, column) ? row[column] : undefined} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('noRows')}</p> : null}
      <Pager page={page} total={rows.length} onPage={setPage} />
    </div>
  );
}

const STATUS_TONES: Record<string, BadgeTone> = { CONFIRMED: 'success', CANCELLED: 'danger', SUSPENDED: 'warning' };

/** A time range in the datasource's zone (the browser's when the zone is unknown to it). */
function useRange(timeZone: string | undefined) {
  const { locale } = useFormat();

  return useMemo(() => {
    const options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat(locale, options);
    }

    return (start: number, end: number) => format.formatRange(start, end);
  }, [locale, timeZone]);
}

function EventsList({ events, timeZone }: { events: readonly EventRow[]; timeZone?: string }) {
  const t = useTranslations('datasourceData.view');
  const range = useRange(timeZone);
  const { page, setPage, shown } = usePage(events);

  return (
    <div>
      {timeZone ? <p className="px-4 pt-3 text-xs text-zinc-500">{t('eventsZone', { zone: timeZone })}</p> : null}
      <ul className="divide-y divide-zinc-100" aria-label={t('eventsLabel')}>
        {shown.map((event) => (
          <li key={`${event.id}-${event.start}`} className="flex flex-wrap items-start gap-x-4 gap-y-1 px-4 py-3 text-sm">
            <span className="w-64 shrink-0 text-zinc-600 tabular-nums">{range(event.start, event.end)}</span>
            <span className="min-w-0 flex-1" translate="no">
              <span className={cn('font-medium text-zinc-900', event.status === 'CANCELLED' && 'line-through decoration-zinc-400')}>
                {event.title || '—'}
              </span>
              {event.organizer || event.location ? (
                <span className="block text-xs text-zinc-500">{[event.organizer, event.location].filter(Boolean).join(' · ')}</span>
              ) : null}
            </span>
            <Badge tone={STATUS_TONES[event.status] ?? 'neutral'}>
              {event.status === 'CONFIRMED' || event.status === 'CANCELLED' || event.status === 'SUSPENDED'
                ? t(`eventStatus.${event.status}`)
                : event.status}
            </Badge>
          </li>
        ))}
      </ul>
      <Pager page={page} total={events.length} onPage={setPage} />
    </div>
  );
}

function PlainList({ items }: { items: readonly unknown[] }) {
  const t = useTranslations('datasourceData.view');
  const columns = useMemo(() => objectColumns(items), [items]);
  const { page, setPage, shown } = usePage(items);
  if (columns) return <TableOf label={t('listLabel')} columns={columns} rows={items as ReadonlyArray<Record<string, unknown>>} />;

  return (
    <div>
      <ol className="divide-y divide-zinc-100 text-sm text-zinc-800" aria-label={t('listLabel')} translate="no">
        {shown.map((item, i) => (
          <li key={page * ROWS_PER_PAGE + i} className="flex gap-3 px-4 py-2">
            <span className="w-8 shrink-0 text-right text-xs leading-5 text-zinc-400 tabular-nums">{page * ROWS_PER_PAGE + i + 1}</span>
            <span className="min-w-0 break-words">{valueText(item)}</span>
          </li>
        ))}
      </ol>
      <Pager page={page} total={items.length} onPage={setPage} />
    </div>
  );
}

function FeedItem({ item }: { item: FeedRow }) {
  const format = useFormat();
  const [isImageBroken, setImageBroken] = useState(false);

  return (
    <li className="flex gap-4 px-4 py-3">
      {item.imageUrl && !isImageBroken ? (
        // A remote picture of the feed: no referrer to its host; hidden when it cannot be shown (the console's policy may refuse it).
        // eslint-disable-next-line @next/next/no-img-element -- a feed's own image on another host, not an asset next/image could optimise
        <img
          src={item.imageUrl}
          alt=""
          referrerPolicy="no-referrer"
          loading="lazy"
          onError={() => setImageBroken(true)}
          className="size-16 shrink-0 rounded-md bg-zinc-100 object-cover"
        />
      ) : null}
      <div className="min-w-0 flex-1 text-sm" translate="no">
        {item.link ? (
          <a
            href={item.link}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
          >
            {item.title || item.link}
            <ExternalIcon className="size-3.5 shrink-0" />
          </a>
        ) : (
          <p className="font-medium text-zinc-900">{item.title || '—'}</p>
        )}
        {item.published !== undefined ? <p className="text-xs text-zinc-500">{format.dateTime(item.published)}</p> : null}
        {item.summary ? <p className="mt-1 line-clamp-3 text-zinc-600">{item.summary}</p> : null}
      </div>
    </li>
  );
}

function FeedItems({ title, items }: { title?: string; items: readonly FeedRow[] }) {
  const t = useTranslations('datasourceData.view');
  const { page, setPage, shown } = usePage(items);

  return (
    <div>
      {title ? (
        <p className="px-4 pt-3 text-sm font-medium text-zinc-700" translate="no">
          {title}
        </p>
      ) : null}
      <ul className="divide-y divide-zinc-100" aria-label={t('feedLabel')}>
        {shown.map((item, i) => (
          <FeedItem key={`${item.id}-${i}`} item={item} />
        ))}
      </ul>
      <Pager page={page} total={items.length} onPage={setPage} />
    </div>
  );
}

function KeyValues({ entries }: { entries: ReadonlyArray<[string, unknown]> }) {
  const t = useTranslations('datasourceData.view');
  const { page, setPage, shown } = usePage(entries);

  return (
    <div>
      <table className="w-full text-sm" aria-label={t('keyValueLabel')}>
        <thead className="border-b border-zinc-200 bg-zinc-50/80">
          <tr>
            <th scope="col" className={cn(headClass, 'w-1/3')}>
              {t('key')}
            </th>
            <th scope="col" className={headClass}>
              {t('value')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100" translate="no">
          {shown.map(([key, value]) => (
            <tr key={key}>
              <th scope="row" className="px-3 py-2 text-left align-top font-medium break-all text-zinc-900">
                {key}
              </th>
              <td className="px-3 py-2 align-top break-words text-zinc-800">
                {typeof value === 'string' ? value : <code className="font-mono text-xs">{valueText(value)}</code>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} total={entries.length} onPage={setPage} />
    </div>
  );
}

function JsonBlock({ value }: { value: unknown }) {
  const t = useTranslations('datasourceData.view');
  const text = useMemo(() => JSON.stringify(value, null, 2) ?? '', [value]);
  const lines = useMemo(() => text.split('\n'), [text]);
  const [isOpen, setOpen] = useState(false);
  const isFolded = lines.length > JSON_FOLD_LINES && !isOpen;

  return (
    <div className="p-4">
      <pre className="max-h-[36rem] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs leading-5 text-zinc-800" translate="no">
        {isFolded ? `${lines.slice(0, JSON_FOLD_LINES).join('\n')}\n…` : text}
      </pre>
      {lines.length > JSON_FOLD_LINES ? (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => setOpen(!isOpen)} aria-expanded={isOpen}>
          {isOpen ? t('jsonFold') : t('jsonUnfold', { lines: lines.length })}
        </Button>
      ) : null}
    </div>
  );
}

/** The data in the form its structure suggests; `empty` says what to show when there is none. */
export function DataView({ shape, timeZone, empty }: { shape: DataShape; timeZone?: string; empty: ReactNode }) {
  const t = useTranslations('datasourceData.view');
  switch (shape.kind) {
    case 'empty':
      return <div className="px-5 py-10 text-center">{empty}</div>;
    case 'table':
      return <TableOf label={t('tableLabel')} columns={shape.columns} rows={shape.rows} />;
    case 'events':
      return <EventsList events={shape.events} timeZone={timeZone} />;
    case 'list':
      return <PlainList items={shape.items} />;
    case 'feed':
      return <FeedItems title={shape.title} items={shape.items} />;
    case 'keyValue':
      return <KeyValues entries={shape.entries} />;
    case 'json':
      return <JsonBlock value={shape.value} />;
  }
}

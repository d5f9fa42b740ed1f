'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { ExternalIcon } from '@/components/ui/icons';
import type { DatasourceFeed } from '@/lib/player/render';
import { peekLines, shapeOf, valueText, type DataShape } from './data-shapes';

const PEEK_ROWS = 3;
const PEEK_COLUMNS = 3;

/** How many entries the data has beyond the ones a peek shows. */
function moreThan(shape: DataShape, shown: number): number {
  const total =
    shape.kind === 'table'
      ? shape.rows.length
      : shape.kind === 'events'
        ? shape.events.length
        : shape.kind === 'list' || shape.kind === 'feed'
          ? shape.items.length
          : shape.kind === 'keyValue'
            ? shape.entries.length
            : 0;

  return Math.max(0, total - shown);
}

/**
 * What a datasource holds now, in a few lines (the slide editor's panel, under the datasource select): the first rows
 * of a table, the first items or values otherwise. It follows the feed, so it changes when the data does.
 */
export function DataPeek({ feed, datasourceId, structureType }: { feed: DatasourceFeed; datasourceId: string; structureType?: string }) {
  const t = useTranslations('datasourceData.peek');
  const subscribe = useCallback((onChange: () => void) => feed.subscribe(datasourceId, onChange), [feed, datasourceId]);
  const read = useCallback(() => feed.read(datasourceId), [feed, datasourceId]);
  const data = useSyncExternalStore(subscribe, read, () => undefined);
  const shape = useMemo(() => (data === undefined ? undefined : shapeOf(structureType, data)), [data, structureType]);
  const lines = shape && shape.kind !== 'table' ? peekLines(shape, PEEK_ROWS) : [];
  const more = shape ? moreThan(shape, shape.kind === 'table' ? PEEK_ROWS : lines.length) : 0;

  return (
    <div className="rounded-md bg-zinc-50 px-2.5 py-2 text-xs ring-1 ring-zinc-200 ring-inset" data-testid="datasource-peek">
      <div className="mb-1 flex items-center justify-between gap-2">
        <span className="font-medium text-zinc-600">{t('title')}</span>
        <Link
          href={`/datasources/${datasourceId}`}
          target="_blank"
          rel="noopener"
          className="inline-flex items-center gap-1 text-brand-700 hover:underline"
        >
          {t('open')}
          <ExternalIcon className="size-3" />
        </Link>
      </div>
      {shape === undefined ? (
        <p className="text-zinc-500">{t('loading')}</p>
      ) : shape.kind === 'empty' ? (
        <p className="text-zinc-500">{t('empty')}</p>
      ) : shape.kind === 'table' ? (
        <table className="w-full table-fixed text-left" translate="no">
          <thead>
            <tr>
              {shape.columns.slice(0, PEEK_COLUMNS).map((c) => (
                <th key={c} className="truncate pr-1 font-medium text-zinc-500">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="text-zinc-800">
            {shape.rows.slice(0, PEEK_ROWS).map((row, i) => (
              <tr key={i}>
                {shape.columns.slice(0, PEEK_COLUMNS).map((c) => (
                  <td key={c} className="truncate pr-1">
                    {valueText(row[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <ul className="space-y-0.5 text-zinc-800" translate="no">
          {lines.map((line, i) => (
            <li key={i} className="truncate" title={line}>
              {line}
            </li>
          ))}
        </ul>
      )}
      {more > 0 ? <p className="mt-1 text-zinc-500">{t('more', { count: more })}</p> : null}
    </div>
  );
}

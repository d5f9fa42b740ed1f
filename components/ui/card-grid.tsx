'use client';

import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { CheckIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';

/*
 * The grid of a library (media, content): cards with a preview on top and a few lines under it, selected with
 * a checkbox (or a shift, ctrl or cmd click; any click while something is selected), opened with a click, and
 * dragged (with the rest of the selection) onto a folder.
 */

export function CardGrid({ label, dimmed = false, children }: { label: string; dimmed?: boolean; children: ReactNode }) {
  return (
    <ul
      aria-label={label}
      className={cn('grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-3 p-4', dimmed && 'opacity-60 transition-opacity')}
    >
      {children}
    </ul>
  );
}

/** Placeholder cards while the first page loads. */
export function GridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul aria-hidden="true" className="grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-3 p-4">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="overflow-hidden rounded-lg ring-1 ring-zinc-200">
          <div className="aspect-[4/3] animate-pulse bg-zinc-100" />
          <div className="space-y-2 px-3 py-2.5">
            <div className="h-3.5 w-3/4 animate-pulse rounded bg-zinc-100" />
            <div className="h-3 w-1/2 animate-pulse rounded bg-zinc-100" />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function SelectableCard({
  testId,
  name,
  selected,
  selecting,
  active = false,
  selectable,
  onOpen,
  onToggle,
  onDragStart,
  preview,
  menu,
  children,
}: {
  testId: string;
  name: string;
  selected: boolean;
  /** Something on the page is selected: a click selects instead of opening. */
  selecting: boolean;
  /** Open beside the grid (a details panel). */
  active?: boolean;
  /** Selection feeds the bulk actions, which need a writing role. */
  selectable: boolean;
  onOpen: () => void;
  onToggle: (options: { range: boolean }) => void;
  onDragStart?: (event: React.DragEvent) => void;
  /** Drawn in the 4:3 box at the top. */
  preview: ReactNode;
  /** The card's actions (a `RowActions` menu), at its top right. */
  menu?: ReactNode;
  /** The lines under the preview. */
  children: ReactNode;
}) {
  const t = useTranslations('ui');
  return (
    <li
      data-testid={testId}
      aria-label={name}
      draggable={Boolean(onDragStart)}
      onDragStart={onDragStart}
      className={cn(
        'group relative rounded-lg bg-white ring-1 ring-zinc-200 transition hover:shadow-sm hover:ring-zinc-300',
        selected && 'ring-2 ring-brand-500 hover:ring-brand-500',
        active && !selected && 'ring-2 ring-zinc-900 hover:ring-zinc-900',
      )}
    >
      <button
        type="button"
        className="flex w-full cursor-pointer flex-col text-left"
        onClick={(e) => (selectable && (e.shiftKey || e.metaKey || e.ctrlKey || selecting) ? onToggle({ range: e.shiftKey }) : onOpen())}
        aria-label={t('open', { name })}
      >
        <div className="relative aspect-[4/3] overflow-hidden rounded-t-lg">{preview}</div>
        <div className="space-y-1 px-3 py-2">
          <p className="truncate text-sm font-medium text-zinc-900" title={name}>
            {name}
          </p>
          {children}
        </div>
      </button>
      {selectable ? (
        <label
          className={cn(
            'absolute top-2 left-2 flex size-6 cursor-pointer items-center justify-center rounded-md shadow ring-1 transition',
            // One background and ring each: two classes of the same property are decided by the stylesheet's order, not this list's.
            selected
              ? 'bg-brand-600 ring-brand-600'
              : 'bg-white/95 ring-zinc-300 opacity-0 group-hover:opacity-100 focus-within:opacity-100',
            selecting && 'opacity-100',
          )}
        >
          <input
            type="checkbox"
            className="sr-only"
            aria-label={t('select', { name })}
            checked={selected}
            onChange={(e) => onToggle({ range: (e.nativeEvent as MouseEvent).shiftKey === true })}
          />
          {selected ? <CheckIcon className="size-4 text-white" /> : null}
        </label>
      ) : null}
      {menu ? <div className="absolute top-2 right-2 rounded-md bg-white/95 shadow ring-1 ring-zinc-300">{menu}</div> : null}
    </li>
  );
}

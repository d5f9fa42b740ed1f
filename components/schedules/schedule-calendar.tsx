'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { dateOf, dayLanes, MINUTES_PER_DAY, snap, timeOf, todayDay, weekdayNames, weekdayOf, type DayBlock } from '@/lib/schedule/calendar';
import type { PlayLayer } from '@/lib/schedule/folder-plays';

/**
 * One drawn block: a part of one interval of one schedule on one day, or (another layer) a part of what the
 * folder's screens play beside the schedules: channels, emergency or assigned content; those only show.
 */
export type CalendarBlock = DayBlock & {
  key: string;
  layer: 'SCHEDULE' | PlayLayer;
  colour: { background: string; border: string };
  /** On which of the folder's screens a block of another layer plays ("2 of 3 screens"). */
  screens?: string;
  /** The schedule's id (-1 for another layer). */
  scheduleId: number;
  name: string;
  /** Index of the interval in `affectedDateRanges.intervals` (-1: the schedule has no included interval). */
  interval: number;
  inherited: boolean;
  /** A schedule set on a sub-folder of the shown folder: drawn, edited on its own folder's calendar. */
  subFolder?: boolean;
  enabled: boolean;
  movable: boolean;
};

const HOUR_PX = 44;
const DAY_PX = 24 * HOUR_PX;
const dayLabel = (day: number) => Number(dateOf(day).slice(8));
const range = (b: Pick<DayBlock, 'start' | 'end'>) => `${timeOf(b.start)}–${b.end === MINUTES_PER_DAY ? '24:00' : timeOf(b.end)}`;

/** What a block says about itself (its tooltip and accessible name): "Menu (Channels), 2026-12-08 09:00–11:00, on 2 of 3 screens". */
function useDescribe() {
  const t = useTranslations('schedules.block');
  const label = useLabel();

  return useCallback(
    (block: CalendarBlock) =>
      [
        block.layer === 'SCHEDULE' ? block.name : t('ofLayer', { name: block.name, layer: label('layer', block.layer) }),
        `${dateOf(block.day)} ${range(block)}`,
        block.screens ? t('on', { screens: block.screens }) : null,
        block.inherited ? t('inherited') : null,
        block.subFolder ? t('subFolder') : null,
        block.enabled ? null : t('disabled'),
      ]
        .filter(Boolean)
        .join(', '),
    [t, label],
  );
}

/** The weekdays' short names in the console's locale, Monday first. */
function useWeekdays() {
  const locale = useLocale();

  return useMemo(() => weekdayNames(locale), [locale]);
}

type Handlers = {
  /** Null: the user may not write (no drag, no create). */
  onCreate: ((start: number, end: number) => void) | null;
  onMove: ((block: CalendarBlock, delta: number) => void) | null;
  /** Null: blocks only show (a reader). */
  onOpen: ((block: CalendarBlock) => void) | null;
};

type Drag =
  | { kind: 'create'; anchor: number; current: number }
  | { kind: 'move'; block: CalendarBlock; origin: number; current: number; moved: boolean };

function BlockBox({
  block,
  style,
  className,
  onPointerDown,
  onOpen,
}: {
  block: CalendarBlock;
  style: CSSProperties;
  className?: string;
  onPointerDown?: (e: ReactPointerEvent) => void;
  onOpen?: ((block: CalendarBlock) => void) | null;
}) {
  const label = useLabel();
  const describe = useDescribe();
  const colour = block.colour;
  const opens = onOpen && block.layer === 'SCHEDULE' && !block.subFolder;

  return (
    <div
      role={opens ? 'button' : 'img'}
      tabIndex={opens ? 0 : undefined}
      title={describe(block)}
      onKeyDown={(e) => {
        if (opens && (e.key === 'Enter' || e.key === ' ')) {
          e.preventDefault();
          onOpen(block);
        }
      }}
      data-testid="schedule-block"
      data-schedule={block.name}
      data-layer={block.layer}
      aria-label={describe(block)}
      onPointerDown={onPointerDown}
      className={cn(
        'absolute overflow-hidden rounded-md border px-1.5 py-0.5 text-xs leading-tight text-white shadow-sm select-none',
        block.movable ? 'cursor-grab' : opens ? 'cursor-pointer' : undefined,
        block.inherited && 'border-dashed opacity-80',
        !block.enabled && 'opacity-50',
        block.continuesBefore && 'rounded-t-none',
        block.continuesAfter && 'rounded-b-none',
        className,
      )}
      style={{ background: colour.background, borderColor: colour.border, ...style }}
    >
      <div className="truncate font-medium">{block.name}</div>
      <div className="truncate opacity-90">
        {block.layer === 'SCHEDULE' ? null : `${label('layer', block.layer)} · `}
        {range(block)}
      </div>
    </div>
  );
}

/** The week: 7 day columns of 24 hours; drag on empty time to create, drag a block to move it, click to open it. */
export function WeekView({ days, blocks, onCreate, onMove, onOpen }: { days: number[]; blocks: CalendarBlock[] } & Handlers) {
  const weekdays = useWeekdays();
  const gridRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const first = days[0]!;

  // A week opens at 07:00, or at its earliest block when that lies outside 07:00–18:00 (a late show is not hidden).
  const starts = blocks.filter((b) => !b.continuesBefore).map((b) => b.start);
  const earliest = starts.length ? Math.min(...starts) : null;
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    const key = `${first}:${earliest !== null}`;
    if (!scrollRef.current || scrolledFor.current === key) return;
    scrolledFor.current = key;
    const hour = earliest !== null && (earliest < 7 * 60 || earliest > 18 * 60) ? earliest / 60 - 0.5 : 7;
    scrollRef.current.scrollTop = Math.max(0, hour * HOUR_PX - 12);
  }, [first, earliest]);

  /** The wall minute under the pointer (snapped to 15 minutes). */
  const positionOf = (e: { clientX: number; clientY: number }) => {
    const rect = gridRef.current!.getBoundingClientRect();
    const column = Math.max(0, Math.min(6, Math.floor(((e.clientX - rect.left) / rect.width) * 7)));

    return (first + column) * MINUTES_PER_DAY + snap(((e.clientY - rect.top) / DAY_PX) * MINUTES_PER_DAY);
  };

  // The listeners read the drag from a ref: they are added once per drag, not once per pointer move.
  const dragRef = useRef<Drag | null>(null);
  const update = (next: Drag | null) => {
    dragRef.current = next;
    setDrag(next);
  };
  const isDragging = drag !== null;

  useEffect(() => {
    if (!isDragging) return;
    const move = (e: PointerEvent) => {
      const d = dragRef.current;
      if (!d) return;
      const current = positionOf(e);
      update(d.kind === 'move' ? { ...d, current, moved: d.moved || current !== d.origin } : { ...d, current });
    };
    const up = () => {
      const d = dragRef.current;
      update(null);
      if (!d) return;
      if (d.kind === 'create') {
        const start = Math.min(d.anchor, d.current);
        const end = Math.max(d.anchor, d.current);
        onCreate?.(start, end > start ? end : start + 60);
      } else if (d.current === d.origin) onOpen?.(d.block);
      else onMove?.(d.block, d.current - d.origin);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);

    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one set of listeners per drag; positionOf reads refs only
  }, [isDragging]);

  const startCreate = (e: ReactPointerEvent) => {
    if (!onCreate || e.button !== 0) return;
    e.preventDefault();
    const at = positionOf(e);
    update({ kind: 'create', anchor: at, current: at });
  };
  const startMove = (block: CalendarBlock) => (e: ReactPointerEvent) => {
    // Another layer only shows: a drag on it creates a schedule, as on empty time.
    if (e.button !== 0 || block.layer !== 'SCHEDULE') return;
    e.stopPropagation();
    e.preventDefault();
    if (!onMove || !block.movable) {
      onOpen?.(block);

      return;
    }
    const at = positionOf(e);
    update({ kind: 'move', block, origin: at, current: at, moved: false });
  };

  const preview = drag?.kind === 'create' ? { start: Math.min(drag.anchor, drag.current), end: Math.max(drag.anchor, drag.current) } : null;
  const delta = drag?.kind === 'move' ? drag.current - drag.origin : 0;
  const today = todayDay();

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white" data-testid="week-view">
      <div className="grid grid-cols-[3.5rem_1fr] border-b border-zinc-200">
        <div />
        <div className="grid grid-cols-7">
          {days.map((day) => (
            <div
              key={day}
              className={cn('border-l border-zinc-200 px-2 py-2 text-center text-xs', day === today ? 'text-brand-700' : 'text-zinc-600')}
            >
              <span className="font-medium">{weekdays[weekdayOf(day)]}</span>{' '}
              <span
                className={cn('inline-flex size-6 items-center justify-center rounded-full', day === today && 'bg-brand-600 text-white')}
              >
                {dayLabel(day)}
              </span>
            </div>
          ))}
        </div>
      </div>
      <div ref={scrollRef} className="max-h-[34rem] overflow-y-auto">
        <div className="grid grid-cols-[3.5rem_1fr]">
          <div className="relative" style={{ height: DAY_PX }}>
            {Array.from({ length: 23 }, (_, h) => (
              <span key={h} className="absolute right-2 -translate-y-1/2 text-[11px] text-zinc-400" style={{ top: (h + 1) * HOUR_PX }}>
                {timeOf((h + 1) * 60)}
              </span>
            ))}
          </div>
          <div
            ref={gridRef}
            data-testid="week-grid"
            className={cn('relative grid grid-cols-7 touch-none', onCreate && 'cursor-crosshair')}
            style={{
              height: DAY_PX,
              backgroundImage: `repeating-linear-gradient(to bottom, transparent 0 ${HOUR_PX - 1}px, rgb(228 228 231) ${HOUR_PX - 1}px ${HOUR_PX}px)`,
            }}
            onPointerDown={startCreate}
          >
            {days.map((day) => {
              const own = blocks.filter((b) => b.day === day);
              const placed = dayLanes(own, (18 / DAY_PX) * MINUTES_PER_DAY);

              return (
                <div
                  key={day}
                  className={cn('relative border-l border-zinc-200', weekdayOf(day) >= 5 && 'bg-zinc-50/60')}
                  data-testid="week-day"
                  data-date={dateOf(day)}
                >
                  {own.map((block) => {
                    const { lane, span, of } = placed.get(block.key)!;
                    const dragging =
                      drag?.kind === 'move' && drag.block.scheduleId === block.scheduleId && drag.block.interval === block.interval;

                    return (
                      <BlockBox
                        key={block.key}
                        block={block}
                        onPointerDown={startMove(block)}
                        onOpen={onOpen}
                        className={cn(dragging && delta !== 0 && 'opacity-30')}
                        style={{
                          top: (block.start / MINUTES_PER_DAY) * DAY_PX,
                          height: Math.max(18, ((block.end - block.start) / MINUTES_PER_DAY) * DAY_PX - 2),
                          left: `calc(${(lane / of) * 100}% + 2px)`,
                          width: `calc(${(span / of) * 100}% - 4px)`,
                        }}
                      />
                    );
                  })}
                  {drag?.kind === 'move' && delta !== 0
                    ? blocks
                        .filter((b) => b.scheduleId === drag.block.scheduleId && b.interval === drag.block.interval)
                        .flatMap((b) => {
                          // The dragged interval's parts, shifted, drawn where they land (this column only).
                          const start = b.day * MINUTES_PER_DAY + b.start + delta;
                          const end = b.day * MINUTES_PER_DAY + b.end + delta;
                          const s = Math.max(start, day * MINUTES_PER_DAY);
                          const e = Math.min(end, (day + 1) * MINUTES_PER_DAY);

                          return s < e
                            ? [{ ...b, key: `${b.key}-ghost`, day, start: s - day * MINUTES_PER_DAY, end: e - day * MINUTES_PER_DAY }]
                            : [];
                        })
                        .map((ghost) => (
                          <BlockBox
                            key={ghost.key}
                            block={ghost}
                            className="pointer-events-none z-10 ring-2 ring-white"
                            style={{
                              top: (ghost.start / MINUTES_PER_DAY) * DAY_PX,
                              height: Math.max(18, ((ghost.end - ghost.start) / MINUTES_PER_DAY) * DAY_PX - 2),
                              left: 2,
                              right: 2,
                            }}
                          />
                        ))
                    : null}
                  {preview &&
                  preview.end > day * MINUTES_PER_DAY &&
                  preview.start < (day + 1) * MINUTES_PER_DAY &&
                  preview.end > preview.start ? (
                    <div
                      data-testid="create-preview"
                      className="pointer-events-none absolute inset-x-0.5 rounded-md border-2 border-dashed border-brand-500 bg-brand-100/60"
                      style={{
                        top: ((Math.max(preview.start, day * MINUTES_PER_DAY) - day * MINUTES_PER_DAY) / MINUTES_PER_DAY) * DAY_PX,
                        height:
                          ((Math.min(preview.end, (day + 1) * MINUTES_PER_DAY) - Math.max(preview.start, day * MINUTES_PER_DAY)) /
                            MINUTES_PER_DAY) *
                          DAY_PX,
                      }}
                    />
                  ) : null}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

/** The month: whole weeks, each day listing its schedules' times; clicking a day creates one for that day. */
export function MonthView({
  days,
  month,
  blocks,
  onCreate,
  onOpen,
}: { days: number[]; month: string; blocks: CalendarBlock[] } & Omit<Handlers, 'onMove'>) {
  const t = useTranslations('schedules.block');
  const weekdays = useWeekdays();
  const describe = useDescribe();
  const today = todayDay();

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white" data-testid="month-view">
      <div className="grid grid-cols-7 border-b border-zinc-200 bg-zinc-50">
        {weekdays.map((d) => (
          <div key={d} className="px-2 py-1.5 text-center text-xs font-medium text-zinc-600">
            {d}
          </div>
        ))}
      </div>
      <div className="grid grid-cols-7">
        {days.map((day) => {
          const own = blocks.filter((b) => b.day === day).sort((a, b) => a.start - b.start);
          const inMonth = dateOf(day).slice(0, 7) === month;

          return (
            <div
              key={day}
              data-testid="month-day"
              data-date={dateOf(day)}
              className={cn(
                'min-h-28 border-t border-l border-zinc-200 p-1 first:border-l-0 [&:nth-child(7n+1)]:border-l-0',
                !inMonth && 'bg-zinc-50',
                onCreate && 'cursor-pointer hover:bg-brand-50/40',
              )}
              onClick={() => onCreate?.(day * MINUTES_PER_DAY, (day + 1) * MINUTES_PER_DAY)}
            >
              <div
                className={cn(
                  'mb-1 flex size-6 items-center justify-center rounded-full text-xs',
                  day === today ? 'bg-brand-600 text-white' : inMonth ? 'text-zinc-700' : 'text-zinc-400',
                )}
              >
                {dayLabel(day)}
              </div>
              <div className="space-y-0.5">
                {own.slice(0, 3).map((block) => {
                  const colour = block.colour;

                  return (
                    <button
                      key={block.key}
                      type="button"
                      data-testid="schedule-block"
                      data-schedule={block.name}
                      data-layer={block.layer}
                      title={describe(block)}
                      onClick={(e) => {
                        if (block.layer !== 'SCHEDULE') return;
                        e.stopPropagation();
                        onOpen?.(block);
                      }}
                      className={cn(
                        'flex w-full cursor-pointer items-center gap-1 truncate rounded px-1 py-0.5 text-left text-[11px] text-zinc-800 hover:bg-zinc-100',
                        !block.enabled && 'opacity-50',
                      )}
                    >
                      <span
                        className={cn('size-2 shrink-0 rounded-full', block.inherited && 'ring-1 ring-zinc-400 ring-offset-1')}
                        style={{ background: colour.background }}
                      />
                      <span className="shrink-0 text-zinc-500 tabular-nums">
                        {block.start === 0 && block.end === MINUTES_PER_DAY ? t('allDay') : timeOf(block.start)}
                      </span>
                      <span className="truncate">{block.name}</span>
                    </button>
                  );
                })}
                {own.length > 3 ? <div className="px-1 text-[11px] text-zinc-500">{t('more', { count: own.length - 3 })}</div> : null}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

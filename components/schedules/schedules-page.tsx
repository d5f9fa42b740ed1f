'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { MonthView, WeekView, type CalendarBlock } from '@/components/schedules/schedule-calendar';
import {
  ScheduleDialog,
  scheduleFormValues,
  type ScheduleFormResult,
  type ScheduleFormValues,
} from '@/components/schedules/schedule-dialog';
import { TenantRequired } from '@/components/shell/tenant-required';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ChevronLeftIcon, ChevronRightIcon, PlusIcon } from '@/components/ui/icons';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner, UpdatingIndicator } from '@/components/ui/spinner';
import { deviceGroupResource, useDeviceRoot, type DeviceGroup } from '@/lib/api/device-groups';
import {
  useCreateSchedule,
  useDeleteSchedule,
  useFolderSchedule,
  useSchedules,
  useUpdateSchedule,
  withInterval,
  type Schedule,
} from '@/lib/api/schedules';
import { useCurrentUser } from '@/lib/auth/current-user';
import { cn } from '@/lib/cn';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { choiceFilter, patternFilter, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import {
  dateOf,
  dayBlocks,
  dayNumber,
  intervalRange,
  MINUTES_PER_DAY,
  monthOf,
  scheduleColour,
  scheduleSpans,
  shiftInterval,
  todayDay,
  weekOf,
} from '@/lib/schedule/calendar';
import { folderPlays, playWindows, type FolderPlay, type PlayLayer } from '@/lib/schedule/folder-plays';
import { hasRole } from '@/server/context/roles';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTERS = {
  folder: patternFilter('folder', UUID),
  view: choiceFilter('view', ['week', 'month'] as const),
  date: patternFilter('date', /^\d{4}-\d{2}-\d{2}$/),
};
const SORT: SortState = { field: 'weight', direction: 'asc' };
const SORTABLE = ['weight'] as const;
/** One page of a folder's schedules is laid out; more than this is said, not silently dropped. */
const PAGE_SIZE = 100;
const MS_PER_DAY = 86_400_000;
/** The other layers' colours (a schedule has its own, from its id). */
const LAYER_COLOURS: Record<Exclude<PlayLayer, 'SCHEDULE'>, { background: string; border: string }> = {
  EMERGENCY: { background: 'hsl(0 72% 45%)', border: 'hsl(0 72% 32%)' },
  CONTENT: { background: 'hsl(217 60% 45%)', border: 'hsl(217 60% 32%)' },
  CHANNELS: { background: 'hsl(160 55% 32%)', border: 'hsl(160 55% 22%)' },
};
const playColour = (play: FolderPlay) => (play.layer === 'SCHEDULE' ? scheduleColour(play.scheduleId ?? 0) : LAYER_COLOURS[play.layer]);

type Editing =
  { mode: 'create'; start: number; end: number } | { mode: 'edit'; schedule: Schedule; interval: number; start: number; end: number };

/** Schedules belong to one tenant: like screens, the page asks a switcher to choose one first. */
export function SchedulesPage() {
  const t = useTranslations('schedules.tenant');

  return (
    <TenantRequired title={t('title')} description={t('description')} belongs={t('belongs')} purpose={t('purpose')}>
      <ScheduleConsole />
    </TenantRequired>
  );
}

function ScheduleConsole() {
  const t = useTranslations('schedules');
  const channels = useTranslations('channels');
  const locale = useLocale();
  const errorMessage = useErrorMessage();
  const me = useCurrentUser();
  const canWrite = hasRole(me.role, 'APPROVER');
  const { params, update } = useListParams({ defaultSort: SORT, sortable: SORTABLE, filters: FILTERS });
  const root = useDeviceRoot();
  const folderQuery = deviceGroupResource.useDetail(params.folder || null, { select: 'name,parentId,deviceGroupPath,type' });
  const folder: DeviceGroup | undefined = params.folder ? folderQuery.data : (root.data ?? undefined);
  const folderId = folder?.id ?? '';
  const path = useMemo(() => (folder?.deviceGroupPath ?? '').split('/').filter(Boolean), [folder?.deviceGroupPath]);
  const folderIds = useMemo(() => [...new Set([...path, folderId].filter(Boolean))], [path, folderId]);
  const folderName = folder?.parentId == null ? t('allScreens') : (folder.name ?? t('thisFolder'));

  const anchor = params.date || dateOf(todayDay());
  const days = useMemo(() => (params.view === 'month' ? monthOf(anchor) : weekOf(anchor)), [params.view, anchor]);
  const first = days[0]!;
  const last = days.at(-1)!;
  const list = useSchedules(
    { page: 0, size: PAGE_SIZE, sort: 'weight,asc', folderIds, fromDay: first * MS_PER_DAY, toDay: last * MS_PER_DAY },
    { enabled: folderIds.length > 0 },
  );
  const schedules = useMemo(() => list.data?.content ?? [], [list.data]);

  const inheritedFrom = (s: Schedule): string | undefined => {
    const assigned = s.deviceGroupAssignments ?? [];
    if (assigned.some((a) => String(a.id) === folderId)) return undefined;
    const ancestor = assigned.find((a) => folderIds.includes(String(a.id)));

    // The root folder is "All screens" in the tree, whatever its stored name.
    return ancestor ? (String(ancestor.id) === root.data?.id || !ancestor.name ? t('allScreens') : ancestor.name) : undefined;
  };

  const blocks = useMemo(
    () =>
      schedules.flatMap((s) => {
        const inherited = inheritedFrom(s) !== undefined;

        return scheduleSpans(s, first, last).flatMap(({ interval, spans }) => {
          const item = s.affectedDateRanges?.intervals[interval];
          const movable = canWrite && !s.locked && !s.readOnly && !!item && shiftInterval(item, 0) !== null;

          return dayBlocks(spans, days).map((b, i): CalendarBlock => ({
            ...b,
            key: `${s.id}-${interval}-${b.day}-${i}`,
            layer: 'SCHEDULE',
            colour: scheduleColour(s.id),
            scheduleId: s.id,
            name: s.name ?? `#${s.id}`,
            interval,
            inherited,
            enabled: s.enabled !== false,
            movable,
          }));
        });
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- inheritedFrom reads folderId, folderIds, the root's id and the words, all listed
    [schedules, first, last, days, canWrite, folderId, folderIds, root.data?.id, t],
  );

  const windows = useMemo(() => playWindows(first, last), [first, last]);
  const playing = useFolderSchedule(folderId, windows);
  // Emergency and assigned content are drawn from the moment the page opened on (folderPlays).
  const [openedAt] = useState(() => Date.now());
  // Schedules the list holds are drawn from it (editable); one set on a sub-folder comes from what the screens play.
  const listed = useMemo(() => new Set(schedules.map((s) => s.id)), [schedules]);
  const plays = useMemo(
    () => folderPlays(playing.plans, first, last, { now: openedAt, listed }),
    [playing.plans, first, last, openedAt, listed],
  );
  const playBlocks = useMemo(() => layerBlocks(t, plays, days, playing.screens ?? 0), [t, plays, days, playing.screens]);
  const allBlocks = useMemo(() => [...playBlocks, ...blocks], [playBlocks, blocks]);

  const { notice, show, clear } = useNotice();
  const create = useCreateSchedule();
  const save = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);

  const step = (direction: 1 | -1) => {
    if (params.view === 'month') {
      const [y, m] = anchor.split('-').map(Number) as [number, number];
      update({ date: dateOf(Date.UTC(y, m - 1 + direction, 1) / MS_PER_DAY) });
    } else update({ date: dateOf(dayNumber(anchor) + 7 * direction) });
  };
  const title =
    params.view === 'month'
      ? new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          new Date(dayNumber(anchor) * MS_PER_DAY),
        )
      : `${fmtDay(first, locale)} – ${fmtDay(last, locale)}`;

  const open = (block: CalendarBlock) => {
    const schedule = schedules.find((s) => s.id === block.scheduleId);
    if (!schedule) return;
    const item = schedule.affectedDateRanges?.intervals[block.interval];
    const [start, end] = item ? intervalRange(item) : [block.day * MINUTES_PER_DAY, (block.day + 1) * MINUTES_PER_DAY];
    // An open-ended interval is edited from the shown day: the form needs both ends.
    setEditing({
      mode: 'edit',
      schedule,
      interval: block.interval,
      start: Number.isFinite(start) ? start : block.day * MINUTES_PER_DAY,
      end: Number.isFinite(end) ? end : (block.day + 1) * MINUTES_PER_DAY,
    });
  };

  const move = async (block: CalendarBlock, delta: number) => {
    const schedule = schedules.find((s) => s.id === block.scheduleId);
    const item = schedule?.affectedDateRanges?.intervals[block.interval];
    const moved = item ? shiftInterval(item, delta) : null;
    if (!schedule || !moved) return;
    try {
      await save.mutateAsync({ schedule, affectedDateRanges: withInterval(schedule.affectedDateRanges, block.interval, moved) });
      show({ tone: 'info', text: t('notice.moved', { name: schedule.name ?? '', date: moved.from ?? '', time: moved.fromTime ?? '' }) });
    } catch (error) {
      show({ tone: 'error', text: errorMessage(error) });
    }
  };

  const onSave = async (result: ScheduleFormResult) => {
    if (!editing) return;
    if (editing.mode === 'create') {
      await create.mutateAsync({ ...result, folderId });
      show({ tone: 'info', text: t('notice.created', { name: result.name }) });

      return;
    }
    const { schedule, interval } = editing;
    const [start, end] = intervalRange(result.interval);
    // A schedule without an included interval plays whenever it is valid: the day shown in the form only
    // becomes an interval when the user changed its times.
    const keepsRanges = interval < 0 && start === editing.start && end === editing.end;
    await save.mutateAsync({
      schedule,
      name: result.name,
      enabled: result.enabled,
      contentId: result.contentId,
      affectedDateRanges: keepsRanges ? undefined : withInterval(schedule.affectedDateRanges, interval, result.interval),
      teamIds: sameIds(result.teamIds, teamIdsOf(schedule)) ? undefined : result.teamIds,
    });
    show({ tone: 'info', text: t('notice.saved', { name: result.name }) });
  };

  const formValues: ScheduleFormValues | null = editing
    ? scheduleFormValues(
        editing.mode === 'create'
          ? { name: '', contentId: '', enabled: true, start: editing.start, end: editing.end, teamIds: [] }
          : {
              name: editing.schedule.name ?? '',
              contentId: String(editing.schedule.contentAssignments?.[0]?.id ?? ''),
              enabled: editing.schedule.enabled !== false,
              start: editing.start,
              end: editing.end,
              teamIds: teamIdsOf(editing.schedule),
            },
      )
    : null;
  const total = list.data?.totalElements ?? 0;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={`${t('description')} ${channels('layers')}`}
        actions={
          canWrite && folderId ? (
            <Button
              onClick={() => {
                const start = Math.max(first, Math.min(last, todayDay())) * MINUTES_PER_DAY + 9 * 60;
                setEditing({ mode: 'create', start, end: start + 60 });
              }}
            >
              <PlusIcon className="size-4" /> {t('new')}
            </Button>
          ) : null
        }
      />
      <div className={cn(notice && 'mb-4')}>
        <NoticeAlert notice={notice} onDismiss={clear} />
      </div>
      {/* Below 1280 the folders sit above the calendar, which keeps the whole width: beside them a day was ~50 px at 1024. */}
      <div className="grid gap-6 xl:grid-cols-[17rem_minmax(0,1fr)]">
        <Card className="h-fit max-h-56 overflow-y-auto p-2 xl:max-h-none">
          {root.data ? (
            <DeviceFolderTree
              root={root.data}
              selectedId={folderId}
              openPath={path}
              onSelect={(f) => update({ folder: f.parentId == null ? '' : f.id })}
            />
          ) : root.isPending ? (
            <div className="flex justify-center p-4">
              <Spinner />
            </div>
          ) : null}
        </Card>
        <div className="min-w-0 space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <div className="flex items-center gap-1">
              <Button
                variant="secondary"
                size="sm"
                aria-label={params.view === 'month' ? t('previousMonth') : t('previousWeek')}
                onClick={() => step(-1)}
              >
                <ChevronLeftIcon className="size-4" />
              </Button>
              <Button variant="secondary" size="sm" onClick={() => update({ date: '' })}>
                {t('today')}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={params.view === 'month' ? t('nextMonth') : t('nextWeek')}
                onClick={() => step(1)}
              >
                <ChevronRightIcon className="size-4" />
              </Button>
            </div>
            <h2 className="text-base font-semibold text-zinc-900" data-testid="calendar-title">
              {title}
            </h2>
            <UpdatingIndicator show={list.isFetching && !list.isPending} />
            <div className="ml-auto flex rounded-md ring-1 ring-zinc-300" role="group" aria-label={t('view.label')}>
              {(['week', 'month'] as const).map((view) => (
                <button
                  key={view}
                  type="button"
                  aria-pressed={params.view === view}
                  onClick={() => update({ view })}
                  className={cn(
                    'h-8 cursor-pointer px-3 text-sm first:rounded-l-md last:rounded-r-md',
                    params.view === view ? 'bg-zinc-900 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-50',
                  )}
                >
                  {t(`view.${view}`)}
                </button>
              ))}
            </div>
          </div>
          {list.isError ? <LoadError title={t('loadError')} error={list.error} onRetry={() => void list.refetch()} /> : null}
          {playing.error ? <LoadError title={t('playsLoadError')} error={playing.error} onRetry={playing.refetch} /> : null}
          {total > schedules.length ? <Alert tone="info">{t('truncated', { shown: schedules.length, total })}</Alert> : null}
          {params.view === 'month' ? (
            <MonthView
              days={days}
              month={anchor.slice(0, 7)}
              blocks={allBlocks}
              onCreate={canWrite && folderId ? (start, end) => setEditing({ mode: 'create', start, end }) : null}
              onOpen={canWrite ? open : null}
            />
          ) : (
            <WeekView
              days={days}
              blocks={allBlocks}
              onCreate={canWrite && folderId ? (start, end) => setEditing({ mode: 'create', start, end }) : null}
              onMove={canWrite ? (block, delta) => void move(block, delta) : null}
              onOpen={canWrite ? open : null}
            />
          )}
          <Legend
            schedules={schedules}
            plays={plays}
            screens={playing.screens}
            inheritedFrom={inheritedFrom}
            pending={(list.isPending || playing.isPending) && folderIds.length > 0}
            canWrite={canWrite}
            view={params.view}
          />
        </div>
      </div>
      {editing && formValues ? (
        <ScheduleDialog
          open
          onOpenChange={(next) => !next && setEditing(null)}
          mode={editing.mode}
          values={formValues}
          folderName={editing.mode === 'edit' ? (inheritedFrom(editing.schedule) ?? folderName) : folderName}
          inheritedFrom={editing.mode === 'edit' ? inheritedFrom(editing.schedule) : undefined}
          interval={editing.mode === 'edit' ? editing.schedule.affectedDateRanges?.intervals[editing.interval] : undefined}
          onSave={onSave}
          onDelete={
            editing.mode === 'edit' && canWrite
              ? () => {
                  setDeleting(editing.schedule);
                  setEditing(null);
                }
              : undefined
          }
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title={t('delete.title')}
        description={deleting ? t('delete.body', { name: deleting.name ?? '' }) : undefined}
        confirmLabel={t('delete.title')}
        destructive
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          show({ tone: 'info', text: t('notice.deleted', { name: deleting.name ?? '' }) });
        }}
      />
    </>
  );
}

const teamIdsOf = (schedule: Schedule) => (schedule.teamAccessList?.teams ?? []).map((t) => t.id);
const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

const fmtDay = (day: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(day * MS_PER_DAY));

/**
 * The calendar blocks of what plays beside the schedules. Channels that play over the same time of a day on the
 * same screens share one block ("Menu, News"), so a week of channels takes one lane, not one per channel.
 */
function layerBlocks(t: Translate<'schedules'>, plays: readonly FolderPlay[], days: readonly number[], screens: number): CalendarBlock[] {
  const merged = new Map<string, CalendarBlock>();
  for (const play of plays) {
    const on = t('screensOf', { count: play.deviceIds.length, total: screens });
    for (const b of dayBlocks(play.spans, days)) {
      const shared =
        play.layer === 'CHANNELS' ? `${b.day}:${b.start}:${b.end}:${play.deviceIds.join(',')}` : `${play.key}:${b.day}:${b.start}`;
      const block = merged.get(shared);
      if (block) block.name = `${block.name}, ${play.name}`;
      else
        merged.set(shared, {
          ...b,
          key: `${play.key}-${b.day}-${b.start}`,
          layer: play.layer,
          colour: playColour(play),
          screens: on,
          scheduleId: play.scheduleId ?? -1,
          name: play.name,
          interval: -1,
          inherited: false,
          subFolder: play.layer === 'SCHEDULE',
          enabled: true,
          movable: false,
        });
    }
  }

  return [...merged.values()];
}

function Legend({
  schedules,
  plays,
  screens,
  inheritedFrom,
  pending,
  canWrite,
  view,
}: {
  schedules: Schedule[];
  plays: FolderPlay[];
  screens: number | undefined;
  inheritedFrom: (s: Schedule) => string | undefined;
  pending: boolean;
  canWrite: boolean;
  view: 'week' | 'month';
}) {
  const t = useTranslations('schedules');
  const label = useLabel();
  if (pending) return null;

  return (
    <Card className="p-3">
      {schedules.length === 0 && plays.length === 0 ? (
        <p className="text-sm text-zinc-500" data-testid="schedules-empty">
          {screens === 0 ? t('legend.noScreens') : t('legend.nothing')}{' '}
          {canWrite ? (view === 'week' ? t('legend.dragToCreate') : t('legend.clickToCreate')) : null}
        </p>
      ) : (
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          {plays.map((play) => (
            <li key={play.key} className="flex items-center gap-2" data-testid="legend-item" data-layer={play.layer}>
              <span className="size-3 rounded-sm" style={{ background: playColour(play).background }} />
              <span className="text-xs font-medium text-zinc-500">{label('layer', play.layer)}</span>
              <span className="text-zinc-800">{play.name}</span>
              {play.layer === 'SCHEDULE' ? <span className="text-xs text-zinc-500">{t('legend.subFolder')}</span> : null}
              <span className="text-xs text-zinc-400">
                · {t('legend.on', { screens: t('screensOf', { count: play.deviceIds.length, total: screens ?? play.deviceIds.length }) })}
              </span>
            </li>
          ))}
          {schedules.map((s) => {
            const from = inheritedFrom(s);

            return (
              <li key={s.id} className="flex items-center gap-2" data-testid="legend-item" data-layer="SCHEDULE">
                <span
                  className={cn('size-3 rounded-sm', from && 'ring-1 ring-zinc-400 ring-offset-1')}
                  style={{ background: scheduleColour(s.id).background }}
                />
                <span className="text-xs font-medium text-zinc-500">{label('layer', 'SCHEDULE')}</span>
                <span className={cn('text-zinc-800', s.enabled === false && 'text-zinc-400 line-through')}>{s.name}</span>
                {from ? <span className="text-xs text-zinc-500">{t('legend.inheritedFrom', { folder: from })}</span> : null}
                {s.contentAssignments?.[0]?.name ? <span className="text-xs text-zinc-400">· {s.contentAssignments[0].name}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

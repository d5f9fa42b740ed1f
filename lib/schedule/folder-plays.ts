import { Temporal } from 'temporal-polyfill';
import type { FolderSchedule } from '@/server/modules/display/display.schemas';
import { dayNumber, MINUTES_PER_DAY, type WallSpan } from './calendar';

/*
 * What a folder's screens play, beside its schedules, on the schedules calendar (docs/decisions.md "Folder
 * calendar"): the server resolves every screen (`GET /api/v2/deviceGroup/{id}/schedule`, one plan per distinct
 * resolution); here each plan's segments are placed at the wall time of its screens' zone, as the schedules
 * are, and merged per thing that plays: one entry per channel, emergency content and assigned content, with
 * the screens it plays on. Schedules come from the schedules list (they are edited there).
 */

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
/** The widest UTC offsets: a wall day is within these hours of its UTC day in every zone. */
const ZONE_REACH_MS = 14 * 3_600_000;
/** The server's longest window. */
const WINDOW_MAX_MS = 7 * MS_PER_DAY;

export type PlayLayer = 'EMERGENCY' | 'SCHEDULE' | 'CONTENT' | 'CHANNELS';
/** `scheduleId`: on the SCHEDULE layer, the schedule (set on a sub-folder) that plays. */
export type FolderPlay = { key: string; layer: PlayLayer; name: string; spans: WallSpan[]; deviceIds: string[]; scheduleId?: number };

/** The windows (each at most 7 days) that cover the wall days `first..last` in every zone. */
export function playWindows(first: number, last: number): { from: number; to: number }[] {
  const windows: { from: number; to: number }[] = [];
  const end = (last + 1) * MS_PER_DAY + ZONE_REACH_MS;
  for (let from = first * MS_PER_DAY - ZONE_REACH_MS; from < end; from += WINDOW_MAX_MS)
    windows.push({ from, to: Math.min(end, from + WINDOW_MAX_MS) });

  return windows;
}

/** The wall minute of an instant in `timeZone`. */
function wallOf(epochMs: number, timeZone: string): number {
  const local = Temporal.Instant.fromEpochMilliseconds(Math.floor(epochMs / MS_PER_MINUTE) * MS_PER_MINUTE)
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime();

  return dayNumber(local.toPlainDate().toString()) * MINUTES_PER_DAY + local.hour * 60 + local.minute;
}

function merge(spans: WallSpan[]): WallSpan[] {
  const out: [number, number][] = [];
  for (const [s, e] of [...spans].filter(([a, b]) => a < b).sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }

  return out;
}

const LAYER_ORDER: Record<PlayLayer, number> = { EMERGENCY: 0, SCHEDULE: 1, CONTENT: 2, CHANNELS: 3 };

/**
 * Every channel, emergency and assigned content the plans play on the wall days `first..last`, with where and on
 * which screens, and every schedule that plays there but is not among `listed` (the schedules of the folder and its
 * parents, drawn from the schedules list): a schedule set on a sub-folder. An emergency and assigned content are
 * states of the screen now, with no start the resolution knows: they are drawn from `now` on, not over the days
 * before (an emergency switched on today did not play last Monday).
 */
export function folderPlays(
  plans: FolderSchedule['plans'],
  first: number,
  last: number,
  { now = Number.NEGATIVE_INFINITY, listed = new Set<number>() }: { now?: number; listed?: ReadonlySet<number> } = {},
): FolderPlay[] {
  const from = first * MINUTES_PER_DAY;
  const to = (last + 1) * MINUTES_PER_DAY;
  const plays = new Map<string, { layer: PlayLayer; name: string; spans: WallSpan[]; deviceIds: Set<string>; scheduleId?: number }>();
  const add = (key: string, layer: PlayLayer, name: string, span: WallSpan, deviceIds: readonly string[], scheduleId?: number) => {
    let play = plays.get(key);
    if (!play) plays.set(key, (play = { layer, name, spans: [], deviceIds: new Set(), ...(scheduleId !== undefined && { scheduleId }) }));
    play.spans.push(span);
    for (const id of deviceIds) play.deviceIds.add(id);
  };
  for (const plan of plans) {
    for (const segment of plan.segments) {
      const start = segment.layer === 'EMERGENCY' || segment.layer === 'CONTENT' ? Math.max(segment.from, now) : segment.from;
      if (start >= segment.to) continue;
      const span: WallSpan = [Math.max(from, wallOf(start, plan.timeZone)), Math.min(to, wallOf(segment.to, plan.timeZone))];
      if (span[0] >= span[1]) continue;
      if (segment.layer === 'EMERGENCY' && segment.content)
        add(`emergency:${segment.content.id}`, 'EMERGENCY', segment.content.name, span, plan.deviceIds);
      else if (segment.layer === 'SCHEDULE' && segment.schedule && !listed.has(segment.schedule.id))
        add(`schedule:${segment.schedule.id}`, 'SCHEDULE', segment.schedule.name, span, plan.deviceIds, segment.schedule.id);
      else if (segment.layer === 'CONTENT' && segment.content)
        add(`content:${segment.content.id}`, 'CONTENT', segment.content.name, span, plan.deviceIds);
      else if (segment.layer === 'CHANNELS')
        for (const channel of segment.channels) add(`channel:${channel.campaignId}`, 'CHANNELS', channel.name, span, plan.deviceIds);
    }
  }

  return [...plays]
    .map(([key, { spans, deviceIds, ...p }]) => ({ key, ...p, spans: merge(spans), deviceIds: [...deviceIds].sort() }))
    .sort((a, b) => LAYER_ORDER[a.layer] - LAYER_ORDER[b.layer] || a.name.localeCompare(b.name));
}

import type { Executor } from '@/server/db/client';
import type { Segment } from './display.schemas';
import type { PlaybackContentRef, PlaybackDevice } from './manifest.queries';

/*
 * The playback resolution (spec 4 §4): what a device plays over a window, as segments covering it without
 * gaps or overlaps, adjacent segments different. The manifest (the device) and the schedule (the console)
 * both ask this one function; channels and schedules add their layers here.
 */

export type PlaybackWindow = { from: number; to: number };

const segmentContent = (content: PlaybackContentRef): NonNullable<Segment['content']> => ({ id: content.id, name: content.name, deviceContentType: content.deviceContentType });

/**
 * The layer that plays at every instant of the window, highest first. The layers known today do not change
 * inside a window (device fields, not times), so they give one segment; time-bound layers (SCHEDULE,
 * CHANNELS) will cut the window at their boundaries and merge equal neighbours.
 * EMERGENCY without any emergency content (the device's or the customer's default) falls through to the
 * layers below: there is nothing to show for it.
 */
export async function resolveSegments(_db: Executor, device: PlaybackDevice, window: PlaybackWindow): Promise<Segment[]> {
  if (window.to <= window.from) return [];
  const { from, to } = window;
  if (device.emergencyStatus && device.emergencyContent) return [{ from, to, layer: 'EMERGENCY', content: segmentContent(device.emergencyContent), channels: [] }];
  if (device.content) return [{ from, to, layer: 'CONTENT', content: segmentContent(device.content), channels: [] }];

  return [{ from, to, layer: 'NONE', channels: [] }];
}

/** The content ids the segments play (the roots of the manifest's content closure). */
export function segmentContentIds(segments: readonly Segment[]): string[] {
  return [...new Set(segments.flatMap((s) => (s.content ? [s.content.id] : [])))].sort();
}

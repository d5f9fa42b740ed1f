import type { Executor } from '@/server/db/client';
import { explain as explainRules, resolveSegments as resolveRules, resolveSegmentsShared, type Explanation } from '@/server/playback/resolver';
import type { Segment } from './display.schemas';
import type { PlaybackDevice } from './manifest.queries';
import { loadDeviceFacts, loadDevicesFacts, loadPlaybackRules, targetsOf } from './playback-rules.queries';

/*
 * The playback resolution (spec 4 §4) for one device: its facts and the tenant's campaigns are read here
 * (playback-rules.queries.ts), the pure resolver (server/playback) decides. The manifest (the device) and
 * the schedule (the console) both ask this one function.
 */

export type PlaybackWindow = { from: number; to: number };

/** What `device` plays over the window: segments covering it without gaps, adjacent ones different. */
export async function resolveSegments(db: Executor, device: PlaybackDevice, window: PlaybackWindow): Promise<Segment[]> {
  if (window.to <= window.from) return [];
  const facts = await loadDeviceFacts(db, device);
  const rules = await loadPlaybackRules(db, device.customerId, targetsOf([facts]));

  return resolveRules(rules, facts, window);
}

/**
 * What each of several devices of one tenant plays over the window (the fan-out of a change): their facts
 * and the campaigns that can reach any of them are read once, then devices the rules cannot tell apart are
 * resolved once (`resolveSegmentsShared`); each answer carries that sharing key.
 */
export async function resolveSegmentsOfDevices(db: Executor, customerId: number, playbackDevices: readonly PlaybackDevice[], window: PlaybackWindow): Promise<Map<string, { key: string; segments: Segment[] }>> {
  if (playbackDevices.length === 0 || window.to <= window.from) return new Map(playbackDevices.map((d) => [d.id, { key: d.id, segments: [] }]));
  const facts = await loadDevicesFacts(db, customerId, playbackDevices);
  const rules = await loadPlaybackRules(db, customerId, targetsOf(facts.values()));

  return resolveSegmentsShared(rules, facts.values(), window);
}

/** Why each campaign of the tenant plays or does not play on `device` at `at` (every campaign, with its reasons). */
export async function explainPlayback(db: Executor, device: PlaybackDevice, at: number): Promise<Explanation> {
  const facts = await loadDeviceFacts(db, device);
  const rules = await loadPlaybackRules(db, device.customerId, 'all');

  return explainRules(rules, facts, at);
}

/** The content ids the segments play (the roots of the manifest's content closure): layer content and channel items. */
export function segmentContentIds(segments: readonly Segment[]): string[] {
  const ids = new Set<string>();
  for (const segment of segments) {
    if (segment.content) ids.add(segment.content.id);
    for (const channel of segment.channels) for (const item of channel.items) if (item.type === 'CONTENT') ids.add(item.id);
  }

  return [...ids].sort();
}

/** The file ids channels play directly (FILE items), beside those the content closure references. */
export function segmentFileIds(segments: readonly Segment[]): string[] {
  const ids = new Set<string>();
  for (const segment of segments) for (const channel of segment.channels) for (const item of channel.items) if (item.type === 'FILE') ids.add(item.id);

  return [...ids].sort();
}

import type { Executor } from '@/server/db/client';
import {
  explain as explainRules,
  resolveSegments as resolveRules,
  type DeviceFacts,
  type Explanation,
  type PlaybackRules,
} from '@/server/playback/resolver';
import type { Segment } from './display.schemas';
import type { PlaybackDevice } from './manifest.queries';
import { loadDeviceFacts, loadDevicesFacts, loadPlaybackRules, targetsOf } from './playback-rules.queries';

/*
 * The playback resolution (spec 4 §4) for one device: its facts and the tenant's campaigns are read here
 * (playback-rules.queries.ts), the pure resolver (server/playback) decides. The manifest (the device) and
 * the schedule (the console) both ask this one function.
 */

export type PlaybackWindow = { from: number; to: number };

/** The device's facts and the campaigns that can reach it: a fixed number of statements. */
export async function loadPlayback(db: Executor, device: PlaybackDevice): Promise<{ facts: DeviceFacts; rules: PlaybackRules }> {
  const [facts, rules] = await Promise.all([loadDeviceFacts(db, device), loadPlaybackRules(db, device.customerId, targetsOf([device]))]);

  return { facts, rules };
}

/** What `device` plays over the window: segments covering it without gaps, adjacent ones different. */
export async function resolveSegments(db: Executor, device: PlaybackDevice, window: PlaybackWindow): Promise<Segment[]> {
  if (window.to <= window.from) return [];
  const { facts, rules } = await loadPlayback(db, device);

  return resolveRules(rules, facts, window);
}

/**
 * The facts of several devices of one tenant and the campaigns that can reach any of them (the fan-out of a
 * change, a reconnect storm), read once for all of them.
 */
export async function loadPlaybackOfDevices(
  db: Executor,
  customerId: number,
  playbackDevices: readonly PlaybackDevice[],
): Promise<{ facts: Map<string, DeviceFacts>; rules: PlaybackRules }> {
  const [facts, rules] = await Promise.all([
    loadDevicesFacts(db, customerId, playbackDevices),
    loadPlaybackRules(db, customerId, targetsOf(playbackDevices)),
  ]);

  return { facts, rules };
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
  for (const segment of segments)
    for (const channel of segment.channels) for (const item of channel.items) if (item.type === 'FILE') ids.add(item.id);

  return [...ids].sort();
}

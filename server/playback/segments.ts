import type { ChannelPlay, Segment } from './segments.schemas';
import { campaignTimelines, fileSpan, type CampaignTimeline } from './eligibility';
import { capMs, interleaveMessages, messageTurn, playItems } from './play-order';
import { ownedMemo } from './memo';
import { contains, edgesWithin } from './spans';
import { dayStartsWithin, localDateTextAt } from './time-rules';
import type { CampaignRules, ContentRef, DeviceFacts, PlaybackRules, PlaybackWindow, PlayRules } from './types';

/*
 * The segments of a device over a window (spec 4 §4): the window is cut at every instant where something
 * shown can change (an edge of a campaign's or message's eligibility, a file's validity, a device-zone
 * midnight when a RANDOM order is in play), each piece is resolved at its start, and equal neighbours merge.
 */

type SegmentState = Omit<Segment, 'from' | 'to'>;

export const byWeightThenId = (a: CampaignTimeline, b: CampaignTimeline) =>
  a.campaign.weight - b.campaign.weight || a.campaign.id - b.campaign.id;

const contentRef = (c: ContentRef): ContentRef => ({ id: c.id, name: c.name, deviceContentType: c.deviceContentType });

/** The shuffle seed of a campaign (and message) on the device's local day of `t`; only a RANDOM order reads it. */
const seedOf = (rules: PlayRules, device: DeviceFacts, t: number, campaignId: number, messageId?: number) =>
  rules.orderingMode !== 'RANDOM'
    ? ''
    : `${device.id}|${campaignId}${messageId === undefined ? '' : `|${messageId}`}|${localDateTextAt(t, device.timeZone)}`;

/** Playback slot mapping (spec 2): one item, N items or all items per turn; `playbackSlotDuration` bounds the turn's time. */
function playbackSlot(c: CampaignRules): ChannelPlay['playbackSlot'] {
  const items = !c.playMultipleItemsInSinglePlaybackSlot
    ? 1
    : c.playAllItemsInSinglePlaybackSlot === false
      ? Math.max(1, c.playbackSlotNumberOfElementsToPlay ?? 1)
      : undefined;
  const durationMs = c.playbackSlotDuration && c.playbackSlotDuration > 0 ? c.playbackSlotDuration * 1000 : undefined;

  return { ...(items !== undefined && { items }), ...(durationMs !== undefined && { durationMs }) };
}

/** A channel as it plays at `t`: its own items, or its eligible messages' turns (each item tagged with its message). */
function channelAt(timeline: CampaignTimeline, device: DeviceFacts, t: number): ChannelPlay {
  const c = timeline.campaign;
  const cap = capMs(c);
  const messages = timeline.messages
    .filter((m) => contains(m.eligible, t))
    .sort(
      (a, b) =>
        a.group.weight - b.group.weight || a.group.id - b.group.id || a.message.weight - b.message.weight || a.message.id - b.message.id,
    );
  const turns = messages.map((m) =>
    messageTurn(
      playItems(m.message, t, seedOf(m.message, device, t, c.id, m.message.id), Math.min(cap, capMs(m.message))).map((item) => ({
        ...item,
        messageId: m.message.id,
      })),
      m.message.saturation,
      m.message.isPlayedElementsCappedByItemCount,
    ),
  );
  const items = [...playItems(c, t, seedOf(c, device, t, c.id), cap), ...interleaveMessages(turns, c.contentShuffleMode)];
  const slot = playbackSlot(c);

  return {
    campaignId: c.id,
    name: c.name,
    weight: c.weight,
    saturation: c.saturation ?? 1,
    tags: [...(c.tags ?? [])],
    items,
    ...(slot && Object.keys(slot).length > 0 && { playbackSlot: slot }),
  };
}

/** The layer, content and channels at instant `t` (EMERGENCY > SCHEDULE > CONTENT > CHANNELS > NONE). */
export function stateAt(timelines: readonly CampaignTimeline[], device: DeviceFacts, t: number): SegmentState {
  const eligible = timelines.filter((tl) => contains(tl.eligible, t)).sort(byWeightThenId);
  const channels = eligible.filter((tl) => tl.campaign.level === 'WIDGET').map((tl) => channelAt(tl, device, t));
  const emergency = device.emergencyContent ?? device.defaultEmergencyContent;
  // Emergency without any emergency content falls through: there is nothing to show for it (docs/decisions.md).
  if (device.emergencyStatus && emergency) return { layer: 'EMERGENCY', content: contentRef(emergency), channels };
  const schedule = eligible.find((tl) => tl.campaign.level === 'TOP');
  if (schedule) {
    const [first] = [...(schedule.campaign.contents ?? [])].sort((a, b) => a.weight - b.weight || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (first)
      return {
        layer: 'SCHEDULE',
        schedule: { id: schedule.campaign.id, name: schedule.campaign.name },
        content: contentRef(first),
        channels,
      };
  }
  if (device.content) return { layer: 'CONTENT', content: contentRef(device.content), channels };
  if (channels.length > 0) return { layer: 'CHANNELS', channels };

  return { layer: 'NONE', channels };
}

/** A timeline's own edges inside its window (timelines are shared per window, so are these), and whether it shuffles. */
const timelineEdges = ownedMemo<CampaignTimeline, { edges: number[]; random: boolean }>();

function edgesOf(tl: CampaignTimeline, window: PlaybackWindow): { edges: number[]; random: boolean } {
  return timelineEdges(tl, '', () => {
    const { from, to } = window;
    const edges: number[] = [...edgesWithin(tl.eligible, from, to)];
    let random = false;
    for (const m of tl.messages) edges.push(...edgesWithin(m.eligible, from, to));
    for (const s of [tl.campaign, ...tl.messages.map((m) => m.message)]) {
      if (s.orderingMode === 'RANDOM') random = true;
      for (const f of s.files ?? []) edges.push(...edgesWithin([fileSpan(f)], from, to));
    }

    return { edges, random };
  });
}

/** Instants inside the window where the state can change. */
function boundaries(timelines: readonly CampaignTimeline[], device: DeviceFacts, window: PlaybackWindow): number[] {
  const edges = new Set<number>();
  let random = false;
  for (const tl of timelines) {
    const own = edgesOf(tl, window);
    for (const t of own.edges) edges.add(t);
    if (own.random) random = true;
  }
  if (random) for (const t of dayStartsWithin(window, device.timeZone)) edges.add(t);

  return [...edges].sort((a, b) => a - b);
}

/** Where the state can change over a window, and each campaign's eligibility: what the segments are read from. */
type SegmentPlan = { timelines: CampaignTimeline[]; cuts: number[] };

/**
 * The plan of `device` over a non-empty window. It reads the device's id nowhere: devices with the same
 * targeting, zone and layers share one plan (shared-segments.ts) even when RANDOM orders shuffle per device.
 */
function planSegments(rules: PlaybackRules, device: DeviceFacts, window: PlaybackWindow): SegmentPlan {
  const timelines = campaignTimelines(rules, device, window);

  return { timelines, cuts: [window.from, ...boundaries(timelines, device, window), window.to] };
}

/** The segments of a plan for `device`: each piece between cuts resolved at its start, equal neighbours merged. */
function segmentsOf(plan: SegmentPlan, device: DeviceFacts): Segment[] {
  const { timelines, cuts } = plan;
  const segments: Segment[] = [];
  let lastKey = '';
  for (let i = 0; i < cuts.length - 1; i++) {
    const from = cuts[i]!;
    const to = cuts[i + 1]!;
    const state = stateAt(timelines, device, from);
    const key = JSON.stringify(state);
    const last = segments[segments.length - 1];
    if (last && key === lastKey) last.to = to;
    else segments.push({ from, to, ...state });
    lastKey = key;
  }

  return segments;
}

/** Segments covering `[from, to)` without gaps or overlaps; adjacent segments differ. An empty window has none. */
export function resolveSegments(rules: PlaybackRules, device: DeviceFacts, window: PlaybackWindow): Segment[] {
  if (window.to <= window.from) return [];

  return segmentsOf(planSegments(rules, device, window), device);
}

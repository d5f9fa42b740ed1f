import type { Segment } from './segments.schemas';
import { campaignTimelines, reasonsAt } from './eligibility';
import { byWeightThenId, stateAt } from './segments';
import { contains } from './spans';
import type { CampaignLevel, ContentRef, DeviceFacts, PlaybackRules, ReasonCode } from './types';

/*
 * Why each campaign plays or not on a device at one instant (spec 4 §4 `schedule/explain`). Every failing
 * reason is listed, not only the first. Messages of a MESSAGE_GROUP channel are listed under their channel.
 */

type MessageExplanation = { id: number; name: string; messageGroupId: number; eligible: boolean; reasons: ReasonCode[] };

type CampaignExplanation = {
  id: number;
  name: string;
  level: CampaignLevel;
  eligible: boolean;
  reasons: ReasonCode[];
  /** MESSAGE_GROUP channels: each message of the assigned groups (beyond the spec's shape). */
  messages?: MessageExplanation[];
};

export type Explanation = { at: number; layer: Segment['layer']; campaigns: CampaignExplanation[] };

/** The layer at `at` and every campaign of the tenant with its eligibility and failing reasons. */
export function explain(rules: PlaybackRules, device: DeviceFacts, at: number): Explanation {
  const timelines = campaignTimelines(rules, device, { from: at, to: at + 1 });
  const campaigns = timelines.map((tl): CampaignExplanation => {
    const messages = tl.messages.map((m) => ({
      id: m.message.id,
      name: m.message.name,
      messageGroupId: m.group.id,
      eligible: contains(m.eligible, at),
      reasons: reasonsAt(m.sets, m.items, at, tl.sets),
    }));

    return {
      id: tl.campaign.id,
      name: tl.campaign.name,
      level: tl.campaign.level,
      eligible: contains(tl.eligible, at),
      reasons: reasonsAt(tl.sets, tl.items, at),
      ...(messages.length > 0 && { messages }),
    };
  });

  return { at, layer: stateAt(timelines, device, at).layer, campaigns };
}

type NamedRef = { id: number; name: string };
export type NowPlaying = {
  layer: Segment['layer'];
  /** The layer's content: the emergency content, the schedule's first content or the assigned content. */
  content?: ContentRef;
  /** The schedule (TOP campaign) whose content shows, on the SCHEDULE layer. */
  schedule?: NamedRef;
  /** Eligible channels (WIDGET), by weight then id, each with its eligible messages (sub-channels). */
  channels: (NamedRef & { subChannels: NamedRef[] })[];
  /** The device's assigned content, also when another layer covers it. */
  assignedContent?: ContentRef;
};

/**
 * What `device` plays at `at`, with names: the layer of the segment at that instant (the same `stateAt` the
 * manifest and the schedule read), the schedule that decides it, and every eligible channel with its eligible
 * sub-channels. The screens list asks this for a page of devices at once.
 */
export function nowPlaying(rules: PlaybackRules, device: DeviceFacts, at: number): NowPlaying {
  const timelines = campaignTimelines(rules, device, { from: at, to: at + 1 });
  const state = stateAt(timelines, device, at);
  const eligible = new Map(timelines.filter((tl) => contains(tl.eligible, at)).map((tl) => [tl.campaign.id, tl]));
  const schedule =
    state.layer === 'SCHEDULE' ? [...eligible.values()].filter((tl) => tl.campaign.level === 'TOP').sort(byWeightThenId)[0] : undefined;
  const channels = state.channels.map((c) => {
    const messages = eligible.get(c.campaignId)?.messages.filter((m) => contains(m.eligible, at)) ?? [];

    return { id: c.campaignId, name: c.name, subChannels: messages.map((m) => ({ id: m.message.id, name: m.message.name })) };
  });

  return {
    layer: state.layer,
    ...(state.content && { content: state.content }),
    ...(schedule && { schedule: { id: schedule.campaign.id, name: schedule.campaign.name } }),
    channels,
    ...(device.content && {
      assignedContent: { id: device.content.id, name: device.content.name, deviceContentType: device.content.deviceContentType },
    }),
  };
}

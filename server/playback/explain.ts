import type { Segment } from '@/server/modules/display/display.schemas';
import { campaignTimelines, reasonsAt } from './eligibility';
import { stateAt } from './segments';
import { contains } from './spans';
import type { CampaignLevel, DeviceFacts, PlaybackRules, ReasonCode } from './types';

/*
 * Why each campaign plays or not on a device at one instant (spec 4 §4 `schedule/explain`). Every failing
 * reason is listed, not only the first. Messages of a MESSAGE_GROUP channel are listed under their channel.
 */

export type MessageExplanation = { id: number; name: string; messageGroupId: number; eligible: boolean; reasons: ReasonCode[] };

export type CampaignExplanation = {
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

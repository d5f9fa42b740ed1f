import type { Segment } from '@/server/modules/display/display.schemas';
import { isTargeted } from './eligibility';
import { planSegments, segmentsOf, type SegmentPlan } from './segments';
import type { DeviceFacts, PlaybackRules, PlaybackWindow } from './types';

/*
 * The segments of many devices against one set of rules (a change fanned out to thousands of screens, a
 * reconnect storm). The resolver reads a screen's folders, tags, teams and quick filters only to decide which
 * campaigns and messages target it, so screens with the same targeted campaigns and messages, zone and layers
 * play the same thing, unless a RANDOM order targets them (its seed is the screen's id): those share the plan
 * (eligibility and cuts) and differ in the order of items only. Resolved over their targeted campaigns only,
 * the work grows with the distinct kinds of screens, not with the screens, nor with the campaigns of the
 * other screens of the batch.
 */

/**
 * The campaigns of `rules` that target `device`, and what tells the device apart for the resolver: two
 * devices with the same key get the same segments.
 */
export function targetedRules(rules: PlaybackRules, device: DeviceFacts): { key: string; planKey: string; rules: PlaybackRules } {
  const campaigns: Array<PlaybackRules['campaigns'][number]> = [];
  const targeted: Array<number | string> = [];
  let shuffled = false;
  for (const campaign of rules.campaigns) {
    // An untargeted campaign plays nowhere on the device, nor do its messages (they need their parent).
    if (!isTargeted(campaign, device)) continue;
    campaigns.push(campaign);
    targeted.push(campaign.id);
    if (campaign.orderingMode === 'RANDOM') shuffled = true;
    for (const group of campaign.messageGroups ?? []) {
      for (const message of group.messages) {
        if (!isTargeted(message, device)) continue;
        targeted.push(`m${message.id}`);
        if (message.orderingMode === 'RANDOM') shuffled = true;
      }
    }
  }
  const layers = [device.emergencyStatus, device.emergencyContent ?? null, device.defaultEmergencyContent ?? null, device.content ?? null];

  const planKey = JSON.stringify([device.timeZone, layers, targeted]);

  return { key: shuffled ? `${device.id}\n${planKey}` : planKey, planKey, rules: { campaigns } };
}

export const sharingKey = (rules: PlaybackRules, device: DeviceFacts): string => targetedRules(rules, device).key;

/**
 * Each device's segments over `window`, resolved once per sharing key; answers the key with them. Devices a
 * RANDOM order tells apart still share the plan (eligibility and cuts, the costly part) and differ only in
 * the order of their items.
 */
export function resolveSegmentsShared(rules: PlaybackRules, devices: Iterable<DeviceFacts>, window: PlaybackWindow): Map<string, { key: string; segments: Segment[] }> {
  const plans = new Map<string, SegmentPlan>();
  const byKey = new Map<string, Segment[]>();
  const out = new Map<string, { key: string; segments: Segment[] }>();
  for (const device of devices) {
    const own = targetedRules(rules, device);
    let segments = byKey.get(own.key);
    if (!segments) {
      if (window.to <= window.from) segments = [];
      else {
        let plan = plans.get(own.planKey);
        if (!plan) plans.set(own.planKey, (plan = planSegments(own.rules, device, window)));
        segments = segmentsOf(plan, device);
      }
      byKey.set(own.key, segments);
    }
    out.set(device.id, { key: own.key, segments });
  }

  return out;
}

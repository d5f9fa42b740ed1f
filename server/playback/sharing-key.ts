import { isTargeted } from './eligibility';
import type { DeviceFacts, PlaybackRules } from './types';

/*
 * What tells screens apart for the resolver. It reads a screen's folders, tags, teams and quick filters only to
 * decide which campaigns and messages target it, so screens with the same targeted campaigns and messages, zone
 * and layers play the same thing, unless a RANDOM order targets them (its seed is the screen's id). The manifest
 * ETag is built from this key and what the targeted campaigns play (manifest.ts), so that a change fanned out to
 * thousands of screens is told without resolving any of them.
 */

type TargetIndex = { byDevice: Map<string, number[]>; byFolder: Map<string, number[]>; byQuickFilter: Map<string, number[]> };

const targetIndexes = new WeakMap<PlaybackRules, TargetIndex>();

/** The campaigns of `rules` by what they can target a device by: its id (STATIC), a folder (DYNAMIC), a quick filter. */
function targetIndex(rules: PlaybackRules): TargetIndex {
  let index = targetIndexes.get(rules);
  if (index) return index;
  index = { byDevice: new Map(), byFolder: new Map(), byQuickFilter: new Map() };
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  };
  rules.campaigns.forEach((campaign, i) => {
    if (campaign.deviceSelectionMode === 'STATIC') for (const id of campaign.deviceIds ?? []) add(index!.byDevice, id, i);
    else if (campaign.deviceSelectionMode === 'QUICK_FILTER') {
      if (campaign.deviceQuickFilterId) add(index!.byQuickFilter, campaign.deviceQuickFilterId, i);
    } else for (const id of campaign.deviceGroupIds ?? []) add(index!.byFolder, id, i);
  });
  targetIndexes.set(rules, index);

  return index;
}

/**
 * The positions of the campaigns that may target `device`, in the rules' order: a superset of those
 * `isTargeted` accepts (tags and teams are checked there), found through an index rather than by asking every
 * campaign of the tenant about every screen of a fan-out.
 */
function candidatesFor(rules: PlaybackRules, device: DeviceFacts): number[] {
  const { byDevice, byFolder, byQuickFilter } = targetIndex(rules);
  const found = new Set<number>(byDevice.get(device.id));
  for (const id of device.folderIds) for (const i of byFolder.get(id) ?? []) found.add(i);
  for (const id of device.quickFilterIds) for (const i of byQuickFilter.get(id) ?? []) found.add(i);

  return [...found].sort((a, b) => a - b);
}

/**
 * The campaigns of `rules` that target `device`, and what tells the device apart for the resolver: two
 * devices with the same key get the same segments.
 */
export function targetedRules(rules: PlaybackRules, device: DeviceFacts): { key: string; planKey: string; rules: PlaybackRules } {
  const campaigns: Array<PlaybackRules['campaigns'][number]> = [];
  const targeted: Array<number | string> = [];
  let shuffled = false;
  for (const i of candidatesFor(rules, device)) {
    const campaign = rules.campaigns[i]!;
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

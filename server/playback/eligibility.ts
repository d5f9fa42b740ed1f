import { EVERYTHING, NOTHING, contains, intersect, intersectAll, normalise, subtract, union, type Span } from './spans';
import { memo, ownedMemo } from './memo';
import { dailyWindows, datesAround, dropPartialWindows, intervalSpans, validitySpan } from './time-rules';
import type {
  CampaignRules,
  CandidateFile,
  DeviceFacts,
  MessageGroupRules,
  MessageRules,
  PlaybackRules,
  PlaybackWindow,
  PlayRules,
  ReasonCode,
  Targeting,
  TimeRules,
} from './types';

/*
 * Eligibility of campaigns and messages for one device (spec 4 §4), as sets of instants over a window: one
 * set per rule, so `explain` can name every failing reason at an instant and the segments can cut the window
 * at the edges of the sets.
 */

/** Targeting (`NOT_TARGETED`): STATIC assigned; DYNAMIC in an assigned folder or below, tag condition, teams; QUICK_FILTER matched. */
export function isTargeted(targeting: Targeting, device: DeviceFacts): boolean {
  switch (targeting.deviceSelectionMode) {
    case 'STATIC':
      return (targeting.deviceIds ?? []).includes(device.id);
    case 'QUICK_FILTER':
      return !!targeting.deviceQuickFilterId && device.quickFilterIds.includes(targeting.deviceQuickFilterId);
    default: {
      const inFolder = (targeting.deviceGroupIds ?? []).some((id) => device.folderIds.includes(id));
      const condition = targeting.deviceTagCondition;
      const tags = condition?.tags ?? [];
      const tagsHold =
        tags.length === 0 ||
        (condition?.operator === 'OR' ? tags.some((t) => device.tags.includes(t)) : tags.every((t) => device.tags.includes(t)));
      const teams = targeting.teamIds ?? [];
      const teamHolds = teams.length === 0 || teams.some((t) => device.teamIds.includes(t));

      return inFolder && tagsHold && teamHolds;
    }
  }
}

/** The instants each time rule holds at, for one campaign or message over a window. */
export type RuleSets = {
  enabled: boolean;
  targeted: boolean;
  validity: Span;
  hours: Span[];
  /** null: no included interval (no restriction). */
  included: Span[] | null;
  excluded: Span[];
  /** Where every rule above holds (empty when disabled or not targeted). */
  base: Span[];
};

export type TimeSets = Pick<RuleSets, 'validity' | 'hours' | 'included' | 'excluded'> & {
  /** Where every time rule holds (validity, days and hours, date ranges), whatever `enabled` and targeting say. */
  time: Span[];
};

/** The time rules alone, for a device in `zone` (no targeting, no `enabled`): the campaigns' next airing reads this per zone. */
export function timeSets(rules: TimeRules, zone: string, window: PlaybackWindow): TimeSets {
  const hoursZone = rules.affectedHours?.timeZone ?? zone;
  const validity = validitySpan(rules.validFrom, rules.validTo, zone);
  const hours = normalise(
    dropPartialWindows(
      dailyWindows(rules.affectedDays, rules.affectedHours, hoursZone, datesAround(window, hoursZone)),
      validity,
      rules.affectedHours,
    ),
  );
  const { included, excluded } = intervalSpans(rules.affectedDateRanges, zone, datesAround(window, zone));
  const time = intersectAll([[validity], hours, included ?? EVERYTHING, subtract(EVERYTHING, excluded)]);

  return { validity, hours, included, excluded, time };
}

const DAY_MS = 86_400_000;
const SHARED_TIME_SETS_LIMIT = 50_000;

/**
 * Time sets by the time rules' own text, zone and a day-aligned window around the one asked for: campaigns
 * are read again for every manifest and every batch of a fan-out, with a window starting at "now", while their
 * calendar work (Temporal) depends only on the rules, the zone and the days. Sets computed over a wider window
 * are the same inside the narrower one (a daily window or an interval never reaches past the day after its
 * date), and every reader looks inside its window only (edges within it, membership of its instants).
 * Cleared whole when full.
 */
const timeSetsByText = memo<TimeSets>(SHARED_TIME_SETS_LIMIT);
/** In front of it, per rules object (a batch resolves thousands of devices against the same objects). */
const timeSetsOf = ownedMemo<TimeRules, TimeSets>();
const ruleText = ownedMemo<TimeRules, string>();

function sharedTimeSets(rules: TimeRules, zone: string, window: PlaybackWindow): TimeSets {
  const wide = { from: (Math.floor(window.from / DAY_MS) - 1) * DAY_MS, to: (Math.ceil(window.to / DAY_MS) + 1) * DAY_MS };
  const zoneKey = `${zone}|${wide.from}|${wide.to}`;

  return timeSetsOf(rules, zoneKey, () => {
    const text = ruleText(rules, '', () =>
      JSON.stringify([
        rules.validFrom ?? null,
        rules.validTo ?? null,
        rules.affectedDays ?? null,
        rules.affectedHours ?? null,
        rules.affectedDateRanges ?? null,
      ]),
    );

    return timeSetsByText(`${zoneKey}|${text}`, () => timeSets(rules, zone, wide));
  });
}

function ruleSets(rules: TimeRules & Targeting, device: DeviceFacts, window: PlaybackWindow): RuleSets {
  const { time, ...sets } = sharedTimeSets(rules, device.timeZone, window);
  const enabled = rules.enabled;
  const targeted = isTargeted(rules, device);

  return { enabled, targeted, ...sets, base: enabled && targeted ? time : [] };
}

/** A file plays inside its validity, both ends inclusive: `[validFrom, validTo + 1)`. */
export const fileSpan = (file: CandidateFile): Span => [
  file.validFrom ?? Number.NEGATIVE_INFINITY,
  file.validTo == null ? Number.POSITIVE_INFINITY : file.validTo + 1,
];

/** The files a campaign or message may play: all of them, or with `skipInvalidFiles` only images and videos. */
export const playableFiles = (rules: Pick<PlayRules, 'files' | 'skipInvalidFiles'>): readonly CandidateFile[] =>
  rules.skipInvalidFiles ? (rules.files ?? []).filter((f) => f.kind !== 'other') : (rules.files ?? []);

/** Where at least one file or content of the candidates is playable. */
function itemSets(candidates: Pick<PlayRules, 'files' | 'skipInvalidFiles' | 'contents'>): Span[] {
  if ((candidates.contents ?? []).length > 0) return [...EVERYTHING];

  return union(playableFiles(candidates).map(fileSpan));
}

type MessageTimeline = { message: MessageRules; group: MessageGroupRules; sets: RuleSets; items: Span[]; eligible: Span[] };

export type CampaignTimeline = { campaign: CampaignRules; sets: RuleSets; items: Span[]; eligible: Span[]; messages: MessageTimeline[] };

/**
 * Every campaign's eligibility over the window. A message is eligible where its parent's rules hold (all but
 * the parent's items), its own rules hold and it has a playable item; a MESSAGE_GROUP channel's items are its
 * eligible messages. A schedule (TOP) plays content only, so its items are its content assignments.
 */
export function campaignTimelines(rules: PlaybackRules, device: DeviceFacts, window: PlaybackWindow): CampaignTimeline[] {
  return rules.campaigns.map((campaign) => sharedTimeline(campaign, device, window));
}

/**
 * A campaign's timeline depends on the device only through its zone and whether the campaign and each of its
 * messages target it: devices resolved against the same rules object (a fan-out's batch) with the same zone
 * and targeting share it. Kept per campaign object, so it goes with the rules.
 */
const timelinesOf = ownedMemo<CampaignRules, CampaignTimeline>();

function sharedTimeline(campaign: CampaignRules, device: DeviceFacts, window: PlaybackWindow): CampaignTimeline {
  let targeting = isTargeted(campaign, device) ? '1' : '0';
  for (const group of campaign.messageGroups ?? [])
    for (const message of group.messages) targeting += isTargeted(message, device) ? '1' : '0';

  return timelinesOf(campaign, `${device.timeZone}|${window.from}|${window.to}|${targeting}`, () =>
    campaignTimeline(campaign, device, window),
  );
}

function campaignTimeline(campaign: CampaignRules, device: DeviceFacts, window: PlaybackWindow): CampaignTimeline {
  const sets = ruleSets(campaign, device, window);
  const messages = (campaign.messageGroups ?? []).flatMap((group) =>
    group.messages.map((message) => {
      const own = ruleSets(message, device, window);
      const items = itemSets(message);

      return { message, group, sets: own, items, eligible: intersectAll([sets.base, own.base, items]) };
    }),
  );
  const items =
    campaign.level === 'TOP'
      ? (campaign.contents ?? []).length > 0
        ? [...EVERYTHING]
        : [...NOTHING]
      : union(itemSets(campaign), ...messages.map((m) => intersect(m.sets.base, m.items)));

  return { campaign, sets, items, eligible: intersect(sets.base, items), messages };
}

/** Every rule that fails at `t`, in the spec's order; `parent` is given for messages. */
export function reasonsAt(sets: RuleSets, items: readonly Span[], t: number, parent?: RuleSets): ReasonCode[] {
  const reasons: ReasonCode[] = [];
  if (!sets.enabled) reasons.push('DISABLED');
  if (!sets.targeted) reasons.push('NOT_TARGETED');
  if (t < sets.validity[0]) reasons.push('NOT_VALID_YET');
  if (t >= sets.validity[1]) reasons.push('EXPIRED');
  if (!contains(sets.hours, t)) reasons.push('OUTSIDE_HOURS');
  if (sets.included && !contains(sets.included, t)) reasons.push('OUTSIDE_DATE_RANGES');
  if (contains(sets.excluded, t)) reasons.push('EXCLUDED_RANGE');
  if (parent && !contains(parent.base, t)) reasons.push('PARENT_NOT_ELIGIBLE');
  if (!contains(items, t)) reasons.push('NO_PLAYABLE_ITEMS');

  return reasons;
}

import { and, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { uuidArrayParam } from '@/server/db/sql';
import { findPlaybackDevices } from './manifest.queries';
import { loadDevicesFacts, loadMessageGroups } from './playback-rules.queries';
import { devices } from '@/server/modules/devices/devices.table';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { NotFoundError, ValidationError } from '@/server/errors';
import { campaignOwner } from './playback-items.queries';
import { campaignTimelines } from '@/server/playback/eligibility';
import type { CampaignRules, DeviceFacts, MessageGroupRules, TimeRules } from '@/server/playback/resolver';
import { isTargeted } from '@/server/playback/eligibility';
import { intersect, type Span } from '@/server/playback/spans';
import { loadItemFacts, type ItemFacts } from './campaign-airing.queries';
import { targetedDevicePairs, targetedTimeZones, findCampaignTimeRules, campaignAccess, parseCampaignId } from '@/server/modules/campaigns';
import type { CampaignAiring } from '@/server/modules/campaigns/campaigns.schemas';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';

const AIRING_WINDOW_MS = 14 * 24 * 3_600_000;
const AIRING_MAX_IDS = 50;

/** A screen in `zone` that the campaign and its messages target: what the next airing asks the resolver about. */
const screenIn = (zone: string): DeviceFacts => ({
  id: 'airing',
  timeZone: zone,
  folderIds: [],
  tags: [],
  teamIds: [],
  quickFilterIds: [],
  emergencyStatus: false,
});
const TARGETS_IT = { deviceSelectionMode: 'STATIC', deviceIds: ['airing'] } as const;

/** What the next airing reads of a campaign: its time rules, its level and its items (and, MESSAGE_GROUP, its sub-channels). */
type AiringCampaign = TimeRules &
  Pick<CampaignRules, 'id' | 'level' | 'skipInvalidFiles'> & { items: ItemFacts; messageGroups: readonly MessageGroupRules[] };

/** Screens the campaign targets in one zone; for a MESSAGE_GROUP channel, the messages that also target one of them. */
type AiringTarget = { zone: string; messageIds?: ReadonlySet<number> };

/** The resolver's rules for `campaign` on a screen it targets, with the messages that target it (all when not given). */
function airingRules(campaign: AiringCampaign, messageIds?: ReadonlySet<number>): CampaignRules {
  return {
    ...campaign,
    ...TARGETS_IT,
    ...campaign.items,
    name: '',
    weight: 0,
    messageGroups: campaign.messageGroups.map((g) => ({
      ...g,
      messages: g.messages.filter((m) => !messageIds || messageIds.has(m.id)).map((m) => ({ ...m, ...TARGETS_IT })),
    })),
  };
}

/**
 * The earliest instant in `[from, from + 14 days)` at which `campaign` can play on a screen it targets (one per
 * zone, or per zone and set of sub-channels targeting the screen): its time rules hold and it has a playable item
 * then (the resolver's own eligibility), and the end of that airing (null past the window). `hasItems` false:
 * nothing to play at any time of the window (no content or files, an empty folder, a quick filter matching
 * nothing, only files `skipInvalidFiles` leaves out or files outside their validity), whatever the screens.
 */
function nextAiring(campaign: AiringCampaign, targets: readonly AiringTarget[], from: number): Omit<CampaignAiring, 'id'> {
  const window = { from, to: from + AIRING_WINDOW_MS };
  // Items over the window, whatever the campaign's own time rules say (a message's rules do count).
  const all = airingRules(campaign);
  const itemZones = targets.length > 0 ? [...new Set(targets.map((t) => t.zone))] : ['UTC'];
  const hasItems = itemZones.some(
    (zone) =>
      intersect(
        campaignTimelines(
          {
            campaigns: [
              { ...all, enabled: true, validFrom: null, validTo: null, affectedDays: null, affectedHours: null, affectedDateRanges: null },
            ],
          },
          screenIn(zone),
          window,
        )[0]!.eligible,
        [[window.from, window.to]],
      ).length > 0,
  );
  let best: Span | undefined;
  for (const target of hasItems && campaign.enabled ? targets : []) {
    const rules = airingRules(campaign, target.messageIds);
    const first = intersect(campaignTimelines({ campaigns: [rules] }, screenIn(target.zone), window)[0]!.eligible, [
      [window.from, window.to],
    ])[0];
    if (first && (!best || first[0] < best[0] || (first[0] === best[0] && first[1] > best[1]))) best = first;
  }
  if (!best) return { nextAiring: null, airingEnd: null, hasItems };

  return { nextAiring: best[0], airingEnd: best[1] >= window.to ? null : best[1], hasItems };
}

/** Parses `1,2,3` (1 to 50 campaign ids); anything else is a 400. */
function parseIds(raw: string): number[] {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const ids = parts.map((p) => parseCampaignId(p));
  if (parts.length === 0 || parts.length > AIRING_MAX_IDS || ids.some((id) => id === undefined)) {
    throw new ValidationError('request.error.invalid', `campaignIds: 1 to ${AIRING_MAX_IDS} comma-separated campaign ids`, {
      field: 'campaignIds',
    });
  }

  return [...new Set(ids as number[])];
}

/**
 * GET /api/v2/campaign/airing: for each campaign the caller sees, when it next plays. An id that is not a
 * visible campaign of the scope answers 404 (as a single read would). One statement for the rules and one
 * targeting statement per tenant; the time rules are then evaluated per distinct screen zone. A MESSAGE_GROUP
 * channel's screens are read with their facts, so each is asked about the sub-channels that target it.
 */
export async function campaignAirings(ctx: ServiceContext, input: { campaignIds: string; at?: number }): Promise<CampaignAiring[]> {
  const ids = parseIds(input.campaignIds);
  const rows = await findCampaignTimeRules(
    ctx.db,
    and(inArray(campaigns.id, ids), scopeCondition(ctx.scope, campaigns.customerId), campaignAccess(ctx)),
  );
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw new NotFoundError('campaign', missing);
  const targets = new Map<number, AiringTarget[]>();
  const items = new Map<number, ItemFacts>();
  const groupsOf = new Map<number, readonly MessageGroupRules[]>();
  for (const customerId of new Set(rows.map((r) => r.customerId))) {
    const own = rows.filter((r) => r.customerId === customerId);
    const isGroup = (r: (typeof own)[number]) => r.type === 'MESSAGE_GROUP';
    const enabledIds = own.filter((r) => r.enabled && !isGroup(r)).map((r) => r.id);
    const groupIds = own.filter(isGroup).map((r) => r.id);
    const [zones, facts, groups, screens] = await Promise.all([
      targetedTimeZones(ctx.db, customerId, enabledIds),
      loadItemFacts(ctx.db, customerId, own, campaignOwner),
      loadMessageGroups(ctx.db, customerId, groupIds),
      targetedScreens(
        ctx.db,
        customerId,
        own.filter((r) => r.enabled && isGroup(r)).map((r) => r.id),
      ),
    ]);
    for (const [id, list] of zones)
      targets.set(
        id,
        list.map((zone) => ({ zone })),
      );
    for (const [id, f] of facts) items.set(id, f);
    for (const [id, list] of groups) groupsOf.set(id, list ?? []);
    for (const [id, list] of screens) targets.set(id, messageTargets(groupsOf.get(id) ?? [], list));
  }
  const from = input.at ?? Date.now();

  return ids.map((id) => {
    const row = rows.find((r) => r.id === id)!;
    const campaign = {
      ...(row as unknown as TimeRules),
      id,
      level: row.level,
      skipInvalidFiles: row.skipInvalidFiles,
      items: items.get(id)!,
      messageGroups: groupsOf.get(id) ?? [],
    };

    return { id, ...nextAiring(campaign, targets.get(id) ?? [], from) };
  });
}

/** The channel's screens by zone and the set of its sub-channels that target them (one target per distinct pair). */
function messageTargets(groups: readonly MessageGroupRules[], screens: readonly DeviceFacts[]): AiringTarget[] {
  const found = new Map<string, AiringTarget>();
  for (const screen of screens) {
    const messageIds = new Set(groups.flatMap((g) => g.messages.filter((m) => isTargeted(m, screen)).map((m) => m.id)));
    const key = `${screen.timeZone}\n${[...messageIds].sort((a, b) => a - b).join(',')}`;
    if (!found.has(key)) found.set(key, { zone: screen.timeZone, messageIds });
  }

  return [...found.values()];
}

/** The facts of the screens each of `campaignIds` targets (three statements, four with device quick filters). */
async function targetedScreens(db: Executor, customerId: number, campaignIds: readonly number[]): Promise<Map<number, DeviceFacts[]>> {
  const screens = new Map<number, DeviceFacts[]>();
  if (campaignIds.length === 0) return screens;
  const pairs = await targetedDevicePairs(db, customerId, campaignIds);
  const deviceIds = [...new Set(pairs.map((p) => p.deviceId))];
  const facts = await loadDevicesFacts(
    db,
    customerId,
    deviceIds.length === 0 ? [] : await findPlaybackDevices(db, sql`${devices.id} = any(${uuidArrayParam(deviceIds)})`),
  );
  for (const { campaignId, deviceId } of pairs) {
    const screen = facts.get(deviceId);
    if (screen) screens.set(campaignId, [...(screens.get(campaignId) ?? []), screen]);
  }

  return screens;
}

import { and, inArray } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { NotFoundError, ValidationError } from '@/server/errors';
import { campaignOwner } from '@/server/modules/display/playback-items.queries';
import { campaignTimelines } from '@/server/playback/eligibility';
import type { CampaignRules, DeviceFacts, MessageRules, TimeRules } from '@/server/playback/resolver';
import { intersect, type Span } from '@/server/playback/spans';
import { loadAiringMessages, loadItemFacts, type AiringMessage, type ItemFacts } from './campaign-airing.queries';
import { targetedTimeZones } from './campaign-targeting.queries';
import { findCampaignTimeRules } from './campaigns.queries';
import type { CampaignAiring } from './campaigns.schemas';
import { campaignAccess, parseCampaignId } from './campaigns.service';
import { campaigns } from './campaigns.table';

export const AIRING_WINDOW_MS = 14 * 24 * 3_600_000;
export const AIRING_MAX_IDS = 50;

/** A screen in `zone` that the campaign and its messages target: what the next airing asks the resolver about. */
const screenIn = (zone: string): DeviceFacts => ({ id: 'airing', timeZone: zone, folderIds: [], tags: [], teamIds: [], quickFilterIds: [], emergencyStatus: false });
const TARGETS_IT = { deviceSelectionMode: 'STATIC', deviceIds: ['airing'] } as const;

/** What the next airing reads of a campaign: its time rules, its level and its items (and, MESSAGE_GROUP, its messages). */
export type AiringCampaign = TimeRules & Pick<CampaignRules, 'id' | 'level' | 'skipInvalidFiles'> & { items: ItemFacts; messages: readonly AiringMessage[] };

/** The resolver's rules for `campaign` on a screen it targets; each message also targets it (message targeting is not read here). */
function airingRules(campaign: AiringCampaign): CampaignRules {
  const groups = new Map<number, MessageRules[]>();
  for (const m of campaign.messages) {
    const list = groups.get(m.messageGroupId) ?? [];
    list.push({ ...TARGETS_IT, id: Number(m.id), name: '', weight: 0, enabled: m.enabled, validFrom: m.validFrom, validTo: m.validTo, affectedDateRanges: m.affectedDateRanges, ...m.items });
    groups.set(m.messageGroupId, list);
  }

  return {
    ...campaign,
    ...TARGETS_IT,
    ...campaign.items,
    name: '',
    weight: 0,
    messageGroups: [...groups].map(([id, list]) => ({ id, name: '', weight: 0, messages: list })),
  };
}

/**
 * The earliest instant in `[from, from + 14 days)` at which `campaign` can play on a screen in one of `zones`
 * (the targeted screens' zones): its time rules hold and it has a playable item then (the resolver's own
 * eligibility, per zone), and the end of that airing (null past the window). `hasItems` false: nothing to
 * play at any time of the window (no content or files, an empty folder, a quick filter matching nothing,
 * only files `skipInvalidFiles` leaves out or files outside their validity).
 */
export function nextAiring(campaign: AiringCampaign, zones: readonly string[], from: number): Omit<CampaignAiring, 'id'> {
  const window = { from, to: from + AIRING_WINDOW_MS };
  const rules = airingRules(campaign);
  // Items over the window, whatever the campaign's own time rules say (a message's rules do count).
  const itemZones = zones.length > 0 ? zones : ['UTC'];
  const hasItems = itemZones.some((zone) => intersect(campaignTimelines({ campaigns: [{ ...rules, enabled: true, validFrom: null, validTo: null, affectedDays: null, affectedHours: null, affectedDateRanges: null }] }, screenIn(zone), window)[0]!.eligible, [[window.from, window.to]]).length > 0);
  let best: Span | undefined;
  for (const zone of hasItems && campaign.enabled ? zones : []) {
    const first = intersect(campaignTimelines({ campaigns: [rules] }, screenIn(zone), window)[0]!.eligible, [[window.from, window.to]])[0];
    if (first && (!best || first[0] < best[0] || (first[0] === best[0] && first[1] > best[1]))) best = first;
  }
  if (!best) return { nextAiring: null, airingEnd: null, hasItems };

  return { nextAiring: best[0], airingEnd: best[1] >= window.to ? null : best[1], hasItems };
}

/** Parses `1,2,3` (1 to 50 campaign ids); anything else is a 400. */
function parseIds(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim()).filter(Boolean);
  const ids = parts.map((p) => parseCampaignId(p));
  if (parts.length === 0 || parts.length > AIRING_MAX_IDS || ids.some((id) => id === undefined)) {
    throw new ValidationError('request.error.invalid', `campaignIds: 1 to ${AIRING_MAX_IDS} comma-separated campaign ids`, { field: 'campaignIds' });
  }

  return [...new Set(ids as number[])];
}

/**
 * GET /api/v2/campaign/airing: for each campaign the caller sees, when it next plays. An id that is not a
 * visible campaign of the scope answers 404 (as a single read would). One statement for the rules and one
 * targeting statement per tenant; the time rules are then evaluated per distinct screen zone.
 */
export async function campaignAirings(ctx: ServiceContext, input: { campaignIds: string; at?: number }): Promise<CampaignAiring[]> {
  const ids = parseIds(input.campaignIds);
  const rows = await findCampaignTimeRules(ctx.db, and(inArray(campaigns.id, ids), scopeCondition(ctx.scope, campaigns.customerId), campaignAccess(ctx)));
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw new NotFoundError('campaign', missing);
  const zones = new Map<number, string[]>();
  const items = new Map<number, ItemFacts>();
  const messagesOf = new Map<number, AiringMessage[]>();
  for (const customerId of new Set(rows.map((r) => r.customerId))) {
    const own = rows.filter((r) => r.customerId === customerId);
    const enabledIds = own.filter((r) => r.enabled).map((r) => r.id);
    const [targeted, facts, messages] = await Promise.all([
      targetedTimeZones(ctx.db, customerId, enabledIds),
      loadItemFacts(ctx.db, customerId, own, campaignOwner),
      loadAiringMessages(ctx.db, customerId, own.filter((r) => r.type === 'MESSAGE_GROUP').map((r) => r.id)),
    ]);
    for (const [id, list] of targeted) zones.set(id, list);
    for (const [id, f] of facts) items.set(id, f);
    for (const m of messages) messagesOf.set(m.campaignId, [...(messagesOf.get(m.campaignId) ?? []), m]);
  }
  const from = input.at ?? Date.now();

  return ids.map((id) => {
    const row = rows.find((r) => r.id === id)!;
    const campaign = { ...(row as unknown as TimeRules), id, level: row.level, skipInvalidFiles: row.skipInvalidFiles, items: items.get(id)!, messages: messagesOf.get(id) ?? [] };

    return { id, ...nextAiring(campaign, zones.get(id) ?? [], from) };
  });
}

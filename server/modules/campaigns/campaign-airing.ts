import { and, inArray } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { NotFoundError, ValidationError } from '@/server/errors';
import { timeSets } from '@/server/playback/eligibility';
import { intersect } from '@/server/playback/spans';
import type { TimeRules } from '@/server/playback/types';
import { targetedTimeZones } from './campaign-targeting.queries';
import { findCampaignTimeRules } from './campaigns.queries';
import type { CampaignAiring } from './campaigns.schemas';
import { campaignAccess, parseCampaignId } from './campaigns.service';
import { campaigns } from './campaigns.table';

export const AIRING_WINDOW_MS = 14 * 24 * 3_600_000;
export const AIRING_MAX_IDS = 50;

/**
 * The earliest instant in `[from, from + 14 days)` at which `rules` hold in one of `zones` (the targeted
 * screens' zones), and the end of that airing (null past the window). The pure time rules of server/playback
 * decide, per zone; enabled and targeting are the caller's.
 */
export function nextAiring(rules: TimeRules, zones: readonly string[], from: number): Pick<CampaignAiring, 'nextAiring' | 'airingEnd'> {
  const window = { from, to: from + AIRING_WINDOW_MS };
  let best: readonly [number, number] | undefined;
  for (const zone of zones) {
    const first = intersect(timeSets(rules, zone, window).time, [[window.from, window.to]])[0];
    if (first && (!best || first[0] < best[0] || (first[0] === best[0] && first[1] > best[1]))) best = first;
  }
  if (!best) return { nextAiring: null, airingEnd: null };

  return { nextAiring: best[0], airingEnd: best[1] >= window.to ? null : best[1] };
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
  for (const customerId of new Set(rows.map((r) => r.customerId))) {
    const enabledIds = rows.filter((r) => r.customerId === customerId && r.enabled).map((r) => r.id);
    for (const [id, list] of await targetedTimeZones(ctx.db, customerId, enabledIds)) zones.set(id, list);
  }
  const from = input.at ?? Date.now();

  return ids.map((id) => {
    const row = rows.find((r) => r.id === id)!;

    return { id, ...nextAiring(row as unknown as TimeRules, row.enabled ? (zones.get(id) ?? []) : [], from) };
  });
}

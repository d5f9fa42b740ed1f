import type { z } from '@hono/zod-openapi';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError, ValidationError } from '@/server/errors';
import { announceDeviceChange } from '@/server/modules/devices';
import { normalizeTags } from '@/server/modules/tags';
import { readOnlyExpression } from '@/server/modules/teams';
import {
  campaignSelection,
  lockNamedCampaigns,
  setCampaignColumn,
  type ActionColumn,
  type CampaignColumnChange,
  type CampaignRowAccess,
} from './campaign-actions.queries';
import { targetedDeviceIds } from './campaign-targeting.queries';
import { campaignSaturation, channelRuleWritableFields } from './campaigns.schemas';
import { assertCampaignWritable, auditCampaign, campaignAccess, campaignWord, parseCampaignId } from './campaigns.service';
import { campaigns } from './campaigns.table';

/*
 * The campaign half of webhook actions (spec 3 "Webhook action", spec 5 §4): ENABLE_CAMPAIGN, DISABLE_CAMPAIGN,
 * CHANGE_SATURATION_CAMPAIGN and CHANGE_PRIORITY_CAMPAIGN, by id or `_BY_TAGS`. Each is what a console edit of the
 * one field would do to every targeted campaign (the same bounds, `lastSaved`, the manifest push to the screens the
 * campaigns target, an audit entry per campaign), as one UPDATE in the caller's transaction.
 */

/** By id: each must be the tenant's and writable. By tags: the writable campaigns carrying any of them. */
export type CampaignActionTarget = { kind: 'campaigns'; campaignIds: string[] } | { kind: 'tags'; tags: string[] };
/** `priority` is the campaign's `weight` (spec 2: "order/priority; lower number plays first"). */
export type CampaignActionChange = { enabled: boolean } | { saturation: number } | { priority: number };

/** Ids or tags one action names at most: the tenant's campaigns are bounded by its limit long before this. */
const MAX_TARGETS = 1_000;

type ParsedChange = { field: 'enabled' | 'saturation' | 'priority'; column: ActionColumn; value: boolean | number };

function invalid(field: string, message: string): ValidationError {
  return new ValidationError('request.error.invalid', `Invalid value '${field}': ${message}`, { issues: [{ path: field, message }] });
}

/** The one field of the change, checked by the campaign update's own schema pieces (`PUT /api/campaign/{id}`). */
function parseChange(change: CampaignActionChange): ParsedChange {
  // The lead's executor passes what a payload held: anything may arrive here.
  if (typeof change !== 'object' || change === null || Object.keys(change).length !== 1)
    throw invalid('change', 'name exactly one of enabled, saturation or priority');
  const checked = (field: 'saturation' | 'priority', schema: z.ZodType<number>, raw: unknown) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw invalid(field, parsed.error.issues[0]?.message ?? 'invalid');

    return parsed.data;
  };
  if ('enabled' in change) {
    if (typeof change.enabled !== 'boolean') throw invalid('enabled', 'expected true or false');

    return { field: 'enabled', column: 'enabled', value: change.enabled };
  }
  if ('saturation' in change)
    return { field: 'saturation', column: 'saturation', value: checked('saturation', campaignSaturation, change.saturation) };
  if ('priority' in change)
    return { field: 'priority', column: 'weight', value: checked('priority', channelRuleWritableFields.weight, change.priority) };
  throw invalid('change', 'name exactly one of enabled, saturation or priority');
}

const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char === '\u007f';

/** An id or tag as a message may show it: printable, short (a hostile payload may send anything). */
function shownId(raw: unknown): string {
  const text = Array.from(String(raw).slice(0, 80), (char) => (isControl(char) ? '?' : char)).join('');

  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function parseTarget(target: CampaignActionTarget): { ids: number[] } | { tags: string[] } {
  const list = target?.kind === 'campaigns' ? target.campaignIds : target?.kind === 'tags' ? target.tags : undefined;
  if (!Array.isArray(list) || list.length === 0)
    throw invalid('target', target?.kind === 'tags' ? 'name at least one tag' : 'name at least one campaign');
  if (list.length > MAX_TARGETS) throw invalid('target', `name at most ${MAX_TARGETS}`);
  if (target.kind === 'tags') {
    // The tag rules' own message quotes the tag: one with control characters (NUL) is refused here in printable words.
    const unprintable = list.find((tag) => typeof tag !== 'string' || Array.from(tag).some(isControl));
    if (unprintable !== undefined)
      throw new ValidationError('tag.error.invalid', `Invalid tag "${shownId(unprintable)}": a tag holds no control characters`, {
        tag: shownId(unprintable),
      });

    return { tags: normalizeTags(list) };
  }
  const ids = list.map((raw) => {
    const id = parseCampaignId(raw);
    if (id === undefined) throw new NotFoundError('campaign', shownId(raw));

    return id;
  });

  return { ids: [...new Set(ids)] };
}

/** Who saved, as a console edit stamps it: a user by id and email; a key, a device or a job by its name only. */
function savedBy(actor: Actor, at: Date) {
  if (actor.kind === 'user') return { at, byId: actor.userId, byEmail: actor.email, byName: actor.name };
  const name = actor.kind === 'apiKey' ? actor.name : actor.kind === 'device' ? actor.deviceName : actor.job;

  return { at, byId: null, byEmail: null, byName: name };
}

const VERBS: Record<ParsedChange['field'], (value: boolean | number) => string> = {
  enabled: (value) => (value ? 'enabled' : 'disabled'),
  saturation: (value) => `saturation set to ${value}`,
  priority: (value) => `priority set to ${value}`,
};

/** What an execution's record says beside the count: what was left as it was, and why. */
function describe(
  change: ParsedChange,
  result: CampaignColumnChange,
  input: { target: { ids: number[] } | { tags: string[] }; caller: string },
): string {
  const { target, caller } = input;
  const verb = VERBS[change.field](change.value);
  if ('tags' in target && result.matched === 0) return `No campaign ${caller} sees carries the tags ${target.tags.join(', ')}`;
  const left = [
    result.unchanged > 0 ? `${result.unchanged} already ${change.field === 'enabled' ? verb : 'at that value'}` : undefined,
    result.locked > 0 ? `${result.locked} locked` : undefined,
    result.readOnly > 0 ? `${result.readOnly} read-only through the teams of ${caller}` : undefined,
  ].filter((part) => part !== undefined);
  const count = result.changed.length;

  return `${count} campaign${count === 1 ? '' : 's'} ${verb}${left.length > 0 ? `; left as they were: ${left.join(', ')}` : ''}`;
}

/**
 * Runs a webhook's campaign action as the key (or any actor) of `ctx`, in `ctx.db`'s transaction when it is one.
 * Named ids: each must be a campaign of the tenant the caller sees (404 `campaign.error.notFound` naming it), not
 * read-only through its teams (403) and not locked (409), or nothing changes. Tags: the campaigns carrying any of
 * them that the caller may write and that are not locked; the rest are counted in `detail`. `affected` counts the
 * campaigns whose value changed (one already at the value is left alone, as are its screens).
 */
export async function runCampaignAction(
  ctx: ServiceContext<Actor>,
  input: { target: CampaignActionTarget; change: CampaignActionChange },
): Promise<{ affected: number; detail?: string }> {
  const change = parseChange(input.change);
  const target = parseTarget(input.target);
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const access: CampaignRowAccess = { visible: campaignAccess(ctx), readOnly: readOnlyExpression(ctx, 'campaign', campaigns.id) };

  return withTransaction(ctx.db, async (tx) => {
    if ('ids' in target) {
      const found = new Map((await lockNamedCampaigns(tx, { customerId, ids: target.ids, ...access })).map((row) => [row.id, row]));
      for (const id of target.ids) assertCampaignWritable(found.get(id), id);
    }
    const result = await setCampaignColumn(tx, {
      customerId,
      selection: campaignSelection(target),
      column: change.column,
      value: change.value,
      saved: savedBy(ctx.actor, new Date()),
      ...access,
    });
    for (const row of result.changed) {
      await auditCampaign(
        tx,
        ctx,
        { ...row, customerId },
        'update',
        `${campaignWord(row)} '${row.name}' ${VERBS[change.field](change.value)}`,
        {
          fields: [change.column],
          [change.column]: { from: row.previous, to: change.value },
        },
      );
    }
    // Targeting does not depend on these fields: the screens targeted now are those to tell (as a console save does).
    const deviceIds = await targetedDeviceIds(
      tx,
      customerId,
      result.changed.map((row) => row.id),
    );
    await announceDeviceChange(tx, { customerId, deviceIds, kind: 'settings' });

    return {
      affected: result.changed.length,
      detail: describe(change, result, { target, caller: ctx.actor.kind === 'apiKey' ? 'the key' : 'the caller' }),
    };
  });
}

import { targetCustomerId } from '@/server/auth/tenant-scope';
import { teamMemberOf } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import { normalizeTags, registerTags } from '@/server/modules/tags';
import { modifyTeams, parseTeamIdsParam, type TeamGrant } from '@/server/modules/teams';
import { assignmentKinds, itemsOf, type AssignmentKind } from './campaign-assignments';
import { targetedDeviceIds } from './campaign-targeting.queries';
import {
  addAssignments,
  existingTargets,
  findQuickFilterTypes,
  isAdvertiserOf,
  findTeamIds,
  insertCampaign,
  isInAnyTeam,
  removeAssignments,
  teamsOfCampaigns,
  updateCampaignRow,
  type CampaignChanges,
} from './campaigns.queries';
import type { Campaign, CampaignCreate, CampaignTeamAccessListInput, CampaignType, CampaignUpdate } from './campaigns.schemas';
import { announceCampaignChange, auditCampaign, campaignWord, readCampaign, writableCampaign } from './campaigns.service';
import type { CampaignRow } from './campaigns.table';
import enLabels from '@/messages/en/labels.json';

/** The parts of a create or update body (of a campaign or a message) that name other resources. */
export type References = Partial<
  Pick<
    CampaignCreate,
    'contentQuickFilterId' | 'fileQuickFilterId' | 'deviceQuickFilterId' | 'teamAccessList' | 'playedAssetTeamAccessList' | 'advertiserId'
  >
> &
  Partial<Record<(typeof assignmentKinds)[number]['field'], { assignments?: Record<string, unknown>[]; removeIds?: (string | number)[] }>>;

const QUICK_FILTER_TYPES = { contentQuickFilterId: 'CONTENT', fileQuickFilterId: 'FILE', deviceQuickFilterId: 'DEVICE' } as const;

/**
 * Every id the body assigns must be the tenant's own (404 naming the first that is not, as for an unknown
 * id); only then are the quick filters' entity types checked (400), so another tenant's id never gets an
 * answer that tells it exists. `removeIds` need no check: removing what is not assigned changes nothing.
 * `kinds`: the owner's assignment kinds (campaigns' by default; messages pass theirs).
 */
export async function checkReferences(
  tx: Executor,
  customerId: number,
  body: References,
  kinds: readonly AssignmentKind[] = assignmentKinds,
): Promise<void> {
  for (const kind of kinds) {
    const { add } = itemsOf(kind, body[kind.field]);
    const found = await existingTargets(
      tx,
      kind,
      customerId,
      add.map((i) => i.id),
    );
    const missing = add.find((i) => !found.has(String(i.id)));
    if (missing) throw new NotFoundError(kind.resource, missing.id);
  }
  const named = (Object.keys(QUICK_FILTER_TYPES) as (keyof typeof QUICK_FILTER_TYPES)[]).flatMap((field) =>
    body[field] ? [{ field, id: body[field]!.toLowerCase() }] : [],
  );
  const filters = new Map((await findQuickFilterTypes(tx, customerId, [...new Set(named.map((n) => n.id))])).map((f) => [f.id, f]));
  const unknown = named.find((n) => !filters.has(n.id));
  if (unknown) throw new NotFoundError('quickFilter', unknown.id);
  if (body.advertiserId && !(await isAdvertiserOf(tx, customerId, body.advertiserId.toLowerCase())))
    throw new NotFoundError('advertiser', body.advertiserId);
  const teamIds = [...(body.teamAccessList?.teams ?? []), ...(body.playedAssetTeamAccessList?.teams ?? [])].map((t) => t.id.toLowerCase());
  const teams = await findTeamIds(tx, customerId, [...new Set(teamIds)]);
  const missingTeam = teamIds.find((id) => !teams.has(id));
  if (missingTeam) throw new NotFoundError('team', missingTeam);
  for (const { field, id } of named) {
    const filter = filters.get(id)!;
    if (filter.filteredEntityType !== QUICK_FILTER_TYPES[field]) {
      throw new ValidationError(
        'campaign.error.quickFilterType',
        `${field}: quick filter '${filter.name}' filters ${filter.filteredEntityType}, not ${QUICK_FILTER_TYPES[field]}`,
        {
          field,
          filteredEntityType: filter.filteredEntityType,
        },
      );
    }
  }
}

/** Applies the assignment objects of a body: removals first, then additions (re-adding updates the weight). */
export async function applyAssignments(
  tx: Executor,
  row: Pick<CampaignRow, 'id' | 'customerId'>,
  body: References,
  kinds: readonly AssignmentKind[] = assignmentKinds,
): Promise<string[]> {
  const changed: string[] = [];
  for (const kind of kinds) {
    const value = body[kind.field];
    if (!value) continue;
    const { add, remove } = itemsOf(kind, value);
    await removeAssignments(tx, kind, { ownerId: row.id, ids: remove });
    await addAssignments(tx, kind, { ownerId: row.id, customerId: row.customerId, items: add });
    if (add.length + remove.length > 0) changed.push(kind.field);
  }

  return changed;
}

export const teamAccessOf = (list: CampaignTeamAccessListInput | undefined) => (list ? { teams: dedupeTeams(list.teams) } : null);

function dedupeTeams(teams: CampaignTeamAccessListInput['teams']): { id: string; readOnly: boolean }[] {
  return [...new Map(teams.map((t) => [t.id.toLowerCase(), { id: t.id.toLowerCase(), readOnly: t.readOnly ?? false }])).values()];
}

/**
 * A user (or API key) below OWNER who belongs to teams must give the campaign at least one team (spec 2: "a
 * non-OWNER team user must select at least one team in teamAccessList"); otherwise it would be invisible to
 * its own teams. 400 `campaign.error.teamRequired`. Teams the caller is not a member of: 403 (team assignments).
 */
async function assertTeamChosen(tx: Executor, ctx: ServiceContext, grants: readonly TeamGrant[]): Promise<void> {
  if (grants.length > 0) return;
  const member = teamMemberOf(ctx.actor);
  if (member && (await isInAnyTeam(tx, member))) {
    throw new ValidationError('campaign.error.teamRequired', 'Choose at least one of your teams in teamAccessList (or teamIds)', {
      field: 'teamAccessList',
    });
  }
}

/** Who saved: copied onto the row (`lastSavedBy`, `lastSavedByEmail`). */
export function savedBy(ctx: ServiceContext) {
  return { lastSaved: new Date(), lastSavedById: ctx.actor.userId, lastSavedByEmail: ctx.actor.email, lastSavedByName: ctx.actor.name };
}

/** The scalar fields of a body as columns (absent: not in the result). */
function scalarChanges(body: CampaignCreate | CampaignUpdate): CampaignChanges {
  const pick = <K extends keyof CampaignChanges>(key: K, value: CampaignChanges[K] | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Pick<CampaignChanges, K>>;

  return {
    ...pick('name', body.name),
    ...pick('enabled', body.enabled),
    ...pick('weight', body.weight),
    ...pick('saturation', body.saturation),
    ...pick('locked', body.locked),
    ...pick('validFrom', body.validFrom),
    ...pick('validTo', body.validTo),
    ...pick('duration', body.duration),
    ...pick('defaultDuration', body.defaultDuration),
    ...pick('contentShuffleMode', body.contentShuffleMode),
    ...pick('orderingMode', body.orderingMode),
    ...pick('skipDefaultPage', body.skipDefaultPage),
    ...pick('skipInvalidFiles', body.skipInvalidFiles),
    ...pick('affectedHours', body.affectedHours as CampaignChanges['affectedHours']),
    ...pick('affectedDays', body.affectedDays as CampaignChanges['affectedDays']),
    ...pick('affectedDateRanges', body.affectedDateRanges as CampaignChanges['affectedDateRanges']),
    ...pick(
      'deviceTagCondition',
      body.deviceTagCondition && { ...body.deviceTagCondition, tags: normalizeTags(body.deviceTagCondition.tags) },
    ),
    ...pick(
      'contentTagCondition',
      body.contentTagCondition && { ...body.contentTagCondition, tags: normalizeTags(body.contentTagCondition.tags) },
    ),
    ...pick('fileTagCondition', body.fileTagCondition && { ...body.fileTagCondition, tags: normalizeTags(body.fileTagCondition.tags) }),
    ...pick('advertiserId', body.advertiserId?.toLowerCase()),
    ...pick('playedAssetTeamAccessList', teamAccessOf(body.playedAssetTeamAccessList) ?? undefined),
    ...pick('playMultipleItemsInSinglePlaybackSlot', body.playMultipleItemsInSinglePlaybackSlot),
    ...pick('playAllItemsInSinglePlaybackSlot', body.playAllItemsInSinglePlaybackSlot),
    ...pick('playbackSlotItemType', body.playbackSlotItemType),
    ...pick('playbackSlotDuration', body.playbackSlotDuration),
    ...pick('playbackSlotNumberOfElementsToPlay', body.playbackSlotNumberOfElementsToPlay),
    ...pick('contentQuickFilterId', body.contentQuickFilterId?.toLowerCase()),
    ...pick('fileQuickFilterId', body.fileQuickFilterId?.toLowerCase()),
    ...pick('deviceQuickFilterId', body.deviceQuickFilterId?.toLowerCase()),
  };
}

type Validity = { validFrom?: string | null; validTo?: string | null };

/** An update's dates over the stored ones (of a campaign or a message): `validTo` before `validFrom` is a 400. */
export function assertValidityOrder(row: Validity, changes: Validity): void {
  const validFrom = changes.validFrom === undefined ? row.validFrom : changes.validFrom;
  const validTo = changes.validTo === undefined ? row.validTo : changes.validTo;
  if (validFrom && validTo && validFrom > validTo) {
    throw new ValidationError(INVALID_COMBINATION, 'validTo must not be before validFrom', {
      issues: [{ path: 'validTo', message: 'validTo must not be before validFrom' }],
    });
  }
}

/** Campaigns of these types take the default image duration of 10 s when none is given (the asset types require one). */
const DEFAULT_DURATION = 10;

/** POST /api/campaign (APPROVER): a channel or schedule in the selected tenant, with its assignments and teams. */
export async function createCampaign(ctx: ServiceContext, input: CampaignCreate & { teamIds?: string }): Promise<Campaign> {
  return withTransaction(ctx.db, async (tx) => {
    const customerId = targetCustomerId(ctx.scope, ctx.actor);
    await checkReferences(tx, customerId, input);
    const grants: TeamGrant[] = [
      ...parseTeamIdsParam(input.teamIds),
      ...(input.teamAccessList ? dedupeTeams(input.teamAccessList.teams).map((t) => ({ teamId: t.id, readOnly: t.readOnly })) : []),
    ];
    await assertTeamChosen(tx, ctx, grants);
    await assertWithinLimit(tx, customerId, 'CAMPAIGN');
    const tags = normalizeTags(input.tags ?? []);
    const row = await insertCampaign(tx, {
      defaultDuration: DEFAULT_DURATION,
      ...scalarChanges(input),
      customerId,
      name: input.name,
      level: input.level,
      type: input.type as CampaignType,
      version: '2.0',
      deviceSelectionMode: input.deviceSelectionMode ?? 'DYNAMIC',
      tags,
      creatorId: ctx.actor.userId,
      creatorEmail: ctx.actor.email,
      creatorName: ctx.actor.name,
      ...savedBy(ctx),
    });
    await applyAssignments(tx, row, input);
    if (tags.length > 0) await registerTags(tx, customerId, 'CAMPAIGN', tags);
    if (grants.length > 0) await modifyTeams(tx, ctx, 'campaign', String(row.id), { assignToTeams: grants });
    await auditCampaign(tx, ctx, row, 'create', `${campaignWord(row)} '${row.name}' created (${enLabels.channelType[row.type]})`, {
      type: row.type,
      level: row.level,
      deviceSelectionMode: row.deviceSelectionMode,
    });
    await announceCampaignChange(tx, row, []);

    return readCampaign(tx, ctx, row.id);
  });
}

/**
 * PUT /api/campaign/{campaignId} (APPROVER): the fields sent (spec 1 rule 2), additive assignment objects,
 * `reset*` flags (a reset wins over a value sent with it), `tags` replaced, `teamAccessList` replacing the
 * campaign's teams. `type`, `level`, `deviceSelectionMode` and `version` are ignored. A locked campaign
 * refuses every update but one that unlocks it (`locked: false`), which may carry other changes.
 */
export async function updateCampaign(ctx: ServiceContext, rawId: string | number, input: CampaignUpdate): Promise<Campaign> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableCampaign(tx, ctx, rawId, { allowLocked: input.locked === false });
    await checkReferences(tx, row.customerId, input);
    const before = await targetedDeviceIds(tx, row.customerId, [row.id]);
    const changes: CampaignChanges = { ...scalarChanges(input) };
    if (input.resetValidTo) changes.validTo = null;
    if (input.resetDuration) changes.duration = null;
    if (input.resetDefaultDuration) changes.defaultDuration = null;
    if (input.resetAdvertiserId) changes.advertiserId = null;
    if (input.resetPlaybackSlotDuration) changes.playbackSlotDuration = null;
    if (input.resetPlaybackSlotNumberOfElementsToPlay) changes.playbackSlotNumberOfElementsToPlay = null;
    assertValidityOrder(row, changes);
    if (input.tags !== undefined) {
      changes.tags = normalizeTags(input.tags);
      await registerTags(tx, row.customerId, 'CAMPAIGN', changes.tags);
    }
    const assigned = await applyAssignments(tx, row, input);
    if (input.teamAccessList) {
      const wanted = dedupeTeams(input.teamAccessList.teams);
      await assertTeamChosen(
        tx,
        ctx,
        wanted.map((t) => ({ teamId: t.id, readOnly: t.readOnly })),
      );
      const current = (await teamsOfCampaigns(tx, [row.id])).get(row.id) ?? [];
      await modifyTeams(tx, ctx, 'campaign', String(row.id), {
        assignToTeams: wanted.map((t) => ({ teamId: t.id, readOnly: t.readOnly })),
        removeFromTeamIds: current.filter((c) => !wanted.some((w) => w.id === c.id)).map((c) => c.id),
      });
    }
    await updateCampaignRow(tx, row.customerId, row.id, { ...changes, ...savedBy(ctx) });
    const name = changes.name ?? row.name;
    const fields = [...Object.keys(changes), ...assigned, ...(input.teamAccessList ? ['teamAccessList'] : [])];
    await auditCampaign(tx, ctx, { ...row, name }, 'update', `${campaignWord(row)} '${name}' saved`, {
      fields,
      ...(name !== row.name ? { name: { from: row.name, to: name } } : {}),
    });
    await announceCampaignChange(tx, row, before);

    return readCampaign(tx, ctx, row.id);
  });
}

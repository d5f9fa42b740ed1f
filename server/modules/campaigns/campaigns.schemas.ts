import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { dropNullAttributes, nullsDropped, updateBody } from '@/server/http/update-body';
import { combinationIssue, dateOnly, epochMs, intId, resourceName, uuid } from '@/server/http/wire.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';
import {
  CampaignHoursSchema,
  ScheduleIntervalsSchema,
  TagConditionSchema,
  WorkingDaysSchema,
} from '@/server/playback/schedule-rules.schemas';
import { projected } from '@/server/query/projection.schemas';
import { selectTeamIdsParam } from '@/server/modules/teams/teams.schemas';

/*
 * Wire shapes of campaigns: channels (`level` WIDGET) and schedules (`level` TOP), spec 2 "Campaign".
 * Writes are version 1 (`/api/campaign`), reads version 2 (`/api/v2/campaign`). No server imports.
 */

export const campaignTypeValues = [
  'CONTENT',
  'CONTENT_DYNAMIC',
  'ASSETS_STATIC',
  'ASSETS_DYNAMIC',
  'MESSAGE_GROUP',
  'CONTENT_QUICK_FILTER',
  'ASSET_QUICK_FILTER',
] as const;
/** In the spec's enumeration but not created by this service (400 naming why). */
const refusedCampaignTypes = ['CONTENT_BY_TAG', 'SIMPLE_LOOP', 'SIMPLE_LOOP_BY_TAG'] as const;
export const campaignLevelValues = ['WIDGET', 'TOP'] as const;
export const deviceSelectionModeValues = ['STATIC', 'DYNAMIC', 'QUICK_FILTER'] as const;
const contentShuffleModeValues = ['BALANCED', 'SERIAL'] as const;
const orderingModeValues = ['RANDOM', 'ALPHABET', 'DEFAULT'] as const;
export const playbackSlotItemTypeValues = [
  'SIMPLE_LOOP',
  'SIMPLE_LOOP_SLIDE',
  'CONTENT',
  'CONTENT_PAGE',
  'MESSAGE_GROUP',
  'MESSAGE',
  'MESSAGE_ITEM',
] as const;

export type CampaignType = (typeof campaignTypeValues)[number];

const maxAssignments = 10_000;

/** An additive assignment object (spec 2): `assignments` are added (an existing one takes the new weight), `removeIds` removed. */
function assignmentObject<I extends z.ZodType, R extends z.ZodType>(name: string, item: I, removeId: R, description: string) {
  return z
    .object({ assignments: z.array(item).max(maxAssignments).optional(), removeIds: z.array(removeId).max(maxAssignments).optional() })
    .openapi(name, { description });
}

const weight = z.number().int().min(-1_000_000).max(1_000_000).optional().openapi({ description: 'Order: lower plays first' });

export const assignmentShapes = {
  contentAssignment: assignmentObject(
    'CampaignContentAssignment',
    z.object({ contentId: uuid, weight }),
    uuid,
    'Content to play (type CONTENT, schedules)',
  ),
  contentGroupAssignment: assignmentObject(
    'CampaignContentGroupAssignment',
    z.object({ contentGroupId: uuid }),
    uuid,
    'Content folders to play from (CONTENT_DYNAMIC); the root folder means all content',
  ),
  fileAssignment: assignmentObject('CampaignFileAssignment', z.object({ fileId: uuid, weight }), uuid, 'Files to play (ASSETS_STATIC)'),
  fileFolderAssignment: assignmentObject(
    'CampaignFileFolderAssignment',
    z.object({ fileFolderId: uuid }),
    uuid,
    'File folders to play from (ASSETS_DYNAMIC); the root folder means all files',
  ),
  messageGroupAssignment: assignmentObject(
    'CampaignMessageGroupAssignment',
    z.object({ messageGroupId: intId }),
    intId,
    'Message groups (sub-channel groups) to play (MESSAGE_GROUP)',
  ),
  deviceAssignment: assignmentObject(
    'CampaignDeviceAssignment',
    z.object({ deviceId: uuid }),
    uuid,
    'Screens to play on (deviceSelectionMode STATIC)',
  ),
  deviceGroupAssignment: assignmentObject(
    'CampaignDeviceGroupAssignment',
    z.object({ deviceGroupId: uuid }),
    uuid,
    'Device folders whose screens (and those below) play it (DYNAMIC); the root folder means every screen',
  ),
};

export type AssignmentField = keyof typeof assignmentShapes;

const CampaignTeamAccessListInputSchema = z
  .object({ teams: z.array(z.object({ id: uuid, readOnly: z.boolean().optional() })).max(1000) })
  .openapi('CampaignTeamAccessListInput');

/** The writable fields a campaign and a message (sub-channel) share: the same shapes for both. */
export const channelRuleWritableFields = {
  name: resourceName,
  enabled: z.boolean(),
  weight: z.number().int().min(-1_000_000).max(1_000_000).openapi({ description: 'Order / priority: lower plays first' }),
  validFrom: dateOnly.openapi({ description: "First day it plays (yyyy-MM-dd, the device's local date)" }),
  validTo: dateOnly.openapi({ description: 'Last day it plays (yyyy-MM-dd, inclusive)' }),
  defaultDuration: z.number().int().min(3).max(86_400).openapi({ description: 'Seconds for media without a length (images); at least 3' }),
  contentShuffleMode: z.enum(contentShuffleModeValues),
  orderingMode: z.enum(orderingModeValues),
  skipDefaultPage: z.boolean(),
  affectedDateRanges: ScheduleIntervalsSchema,
  deviceTagCondition: TagConditionSchema,
  contentTagCondition: TagConditionSchema,
  fileTagCondition: TagConditionSchema,
  // The campaign's teams: who sees it, and (DYNAMIC) which teams' screens play it (a message: only the latter).
  teamAccessList: CampaignTeamAccessListInputSchema,
  contentQuickFilterId: uuid.openapi({ description: 'A CONTENT quick filter (CONTENT_QUICK_FILTER)' }),
  fileQuickFilterId: uuid.openapi({ description: 'A FILE quick filter (ASSET_QUICK_FILTER)' }),
  deviceQuickFilterId: uuid.openapi({ description: 'A DEVICE quick filter (deviceSelectionMode QUICK_FILTER)' }),
};

/** A campaign's share of playing time (also what a webhook's CHANGE_SATURATION_CAMPAIGN sets). */
export const campaignSaturation = z.number().min(0).max(1_000_000).openapi({ description: 'Share of playing time, proportional' });

/** The fields a create and an update share (every one optional here). */
const writableFields = {
  ...channelRuleWritableFields,
  saturation: campaignSaturation,
  tags: tagListOf(500),
  locked: z.boolean().openapi({ description: 'A locked campaign refuses every change but unlocking (409 `campaign.error.locked`)' }),
  duration: z.number().int().min(1).max(86_400).openapi({ description: "Seconds: caps each item's duration" }),
  skipInvalidFiles: z.boolean(),
  affectedHours: CampaignHoursSchema,
  affectedDays: WorkingDaysSchema,
  advertiserId: uuid.openapi({ description: 'The advertiser (ad tracking)' }),
  // Plays only content and files of these teams.
  playedAssetTeamAccessList: CampaignTeamAccessListInputSchema,
  playMultipleItemsInSinglePlaybackSlot: z.boolean(),
  playAllItemsInSinglePlaybackSlot: z.boolean(),
  playbackSlotItemType: z.enum(playbackSlotItemTypeValues),
  playbackSlotDuration: z.number().int().min(1).max(86_400),
  playbackSlotNumberOfElementsToPlay: z.number().int().min(1).max(100_000),
  ...assignmentShapes,
};

// Nulls are dropped before validation (null = omitted), so each optional attribute also takes null.
const optionalShape = Object.fromEntries(
  Object.entries(nullsDropped(writableFields)).map(([key, schema]) => [key, (schema as z.ZodType).optional()]),
) as {
  [K in keyof typeof writableFields]: z.ZodOptional<(typeof writableFields)[K]>;
};

/** The fields each type needs on create (spec 2 "Required fields per campaign type", docs/decisions.md "Campaigns"). */
const requiredByType: Record<CampaignType, readonly (keyof typeof writableFields)[]> = {
  CONTENT: ['contentAssignment', 'contentShuffleMode'],
  CONTENT_DYNAMIC: ['contentGroupAssignment', 'orderingMode', 'contentShuffleMode'],
  ASSETS_STATIC: ['fileAssignment', 'defaultDuration', 'orderingMode'],
  ASSETS_DYNAMIC: ['fileFolderAssignment', 'defaultDuration', 'orderingMode'],
  MESSAGE_GROUP: ['messageGroupAssignment', 'contentShuffleMode'],
  CONTENT_QUICK_FILTER: ['contentQuickFilterId', 'orderingMode', 'contentShuffleMode'],
  ASSET_QUICK_FILTER: ['fileQuickFilterId', 'defaultDuration', 'orderingMode'],
};

const isAssignmentField = (field: string): field is AssignmentField => field in assignmentShapes;

type CreateShape = z.infer<z.ZodObject<typeof optionalShape>> & { type: string; level: string; deviceSelectionMode?: string };

function missing(body: CreateShape, field: keyof typeof writableFields): boolean {
  const value = (body as Record<string, unknown>)[field];
  if (value === undefined) return true;
  if (isAssignmentField(field)) return ((value as { assignments?: unknown[] }).assignments ?? []).length === 0;

  return false;
}

function checkCreate(body: CreateShape, ctx: z.RefinementCtx): void {
  const type = body.type;
  if ((refusedCampaignTypes as readonly string[]).includes(type) || type.startsWith('DSP_')) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `${type} campaigns are not supported: create CONTENT, CONTENT_DYNAMIC, ASSETS_STATIC, ASSETS_DYNAMIC, MESSAGE_GROUP, CONTENT_QUICK_FILTER or ASSET_QUICK_FILTER`,
    });

    return;
  }
  if (!(campaignTypeValues as readonly string[]).includes(type)) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `Unknown campaign type '${type}'; one of ${campaignTypeValues.join(', ')}` });

    return;
  }
  const required = new Set(requiredByType[type as CampaignType]);
  if (body.level === 'TOP') {
    if (type !== 'CONTENT') combinationIssue(ctx, ['type'], 'A schedule (level TOP) is of type CONTENT');
    required.add('affectedDateRanges');
  }
  const mode = body.deviceSelectionMode ?? 'DYNAMIC';
  if (mode === 'STATIC') required.add('deviceAssignment');
  if (mode === 'QUICK_FILTER') required.add('deviceQuickFilterId');
  if (body.playMultipleItemsInSinglePlaybackSlot === true && body.playAllItemsInSinglePlaybackSlot === false)
    required.add('playbackSlotNumberOfElementsToPlay');
  for (const field of required) {
    if (missing(body, field)) {
      const why =
        field === 'deviceAssignment' || field === 'deviceQuickFilterId'
          ? `deviceSelectionMode ${mode}`
          : field === 'affectedDateRanges'
            ? 'a schedule'
            : field === 'playbackSlotNumberOfElementsToPlay'
              ? 'playing N items per slot'
              : `type ${type}`;
      combinationIssue(
        ctx,
        [field],
        isAssignmentField(field) ? `${why} needs ${field} with at least one assignment` : `${why} needs ${field}`,
      );
    }
  }
  if (body.validFrom && body.validTo && body.validFrom > body.validTo)
    combinationIssue(ctx, ['validTo'], 'validTo must not be before validFrom');
}

/** POST /api/campaign: `name`, `level`, `type` and `version` 2.0 always; the rest by type, level and device selection. */
export const CampaignCreateSchema = z
  .preprocess(
    dropNullAttributes,
    z
      .object({
        ...optionalShape,
        name: writableFields.name,
        level: z
          .enum(campaignLevelValues)
          .openapi({ description: 'WIDGET: a channel; TOP: a schedule (type CONTENT, with affectedDateRanges)' }),
        type: z
          .string()
          .max(64)
          .openapi({
            enum: [...campaignTypeValues],
            description: 'Immutable. CONTENT_BY_TAG, SIMPLE_LOOP, SIMPLE_LOOP_BY_TAG and DSP_* are refused (400)',
          }),
        version: z.literal('2.0', { error: 'A campaign has version 2.0' }),
        deviceSelectionMode: z.enum(deviceSelectionModeValues).optional().openapi({ description: 'Immutable; default DYNAMIC' }),
      })
      .superRefine(checkCreate),
  )
  .openapi('CampaignCreate');

export const resetFlags = [
  'resetValidTo',
  'resetDuration',
  'resetDefaultDuration',
  'resetAdvertiserId',
  'resetPlaybackSlotDuration',
  'resetPlaybackSlotNumberOfElementsToPlay',
] as const;

/** PUT /api/campaign/{campaignId}: partial; assignment objects are additive; `type`, `deviceSelectionMode`, `level` and `version` are ignored. */
export const CampaignUpdateSchema = updateBody(
  'CampaignUpdate',
  {
    ...writableFields,
    ...(Object.fromEntries(resetFlags.map((flag) => [flag, z.boolean()])) as Record<(typeof resetFlags)[number], z.ZodBoolean>),
    type: z.unknown().openapi({ description: 'Immutable: ignored' }),
    deviceSelectionMode: z.unknown().openapi({ description: 'Immutable: ignored' }),
    level: z.unknown().openapi({ description: 'Immutable: ignored' }),
    version: z.unknown().openapi({ description: 'Ignored' }),
  },
  'Assignment objects add (`assignments`) and remove (`removeIds`); `reset*: true` clears a value; `tags` replaces the tags.',
);

const who = z.object({ email: z.string().optional(), name: z.string().optional() });
const ref = z.object({ id: z.string().optional(), name: z.string().optional() });

export const CampaignTeamAccessListSchema = z
  .object({ teams: z.array(z.object({ id: z.string(), name: z.string().optional(), readOnly: z.boolean() })) })
  .openapi('CampaignTeamAccessList');

const idName = z.object({ id: z.string(), name: z.string().optional() });
const intIdName = z.object({ id: intId, name: z.string().optional() });
const weighted = idName.extend({ weight: z.number().int().optional() });

/** The answered fields a campaign and a message (sub-channel) share. */
export const channelRuleResponseFields = {
  version: z.string().optional(),
  enabled: z.boolean().optional(),
  weight: z.number().int().optional(),
  saturation: z.number().optional(),
  validFrom: epochMs.optional().openapi({ description: 'Epoch ms: 00:00 UTC of the first day' }),
  validTo: epochMs.optional().openapi({ description: 'Epoch ms: 00:00 UTC of the last day (inclusive)' }),
  defaultDuration: z.number().int().optional(),
  contentShuffleMode: z.enum(contentShuffleModeValues).optional(),
  orderingMode: z.enum(orderingModeValues).optional(),
  skipDefaultPage: z.boolean().optional(),
  affectedDateRanges: z.record(z.string(), z.unknown()).optional(),
  deviceTagCondition: z.record(z.string(), z.unknown()).optional(),
  contentTagCondition: z.record(z.string(), z.unknown()).optional(),
  fileTagCondition: z.record(z.string(), z.unknown()).optional(),
  deviceSelectionMode: z.enum(deviceSelectionModeValues).optional(),
  contentQuickFilterId: z.string().optional(),
  fileQuickFilterId: z.string().optional(),
  deviceQuickFilterId: z.string().optional(),
  creatorEmail: z.string().optional(),
  lastSavedByEmail: z.string().optional(),
  createdDate: z.string().optional().openapi({ description: 'ISO-8601 UTC' }),
  lastSavedAt: epochMs.optional().openapi({ description: 'Epoch ms' }),
  deviceAssignments: z.array(idName).optional(),
  deviceGroupAssignments: z.array(idName).optional(),
  contentAssignments: z.array(weighted).optional(),
  contentGroupAssignments: z.array(idName).optional(),
  fileFolderAssignments: z.array(idName).optional(),
  fileAssignments: z.array(weighted).optional(),
};

export const CampaignSchema = projected(
  z.object({
    id: intId,
    name: z.string().optional(),
    customerId: intId.optional(),
    ...channelRuleResponseFields,
    level: z.enum(campaignLevelValues).optional(),
    type: z.enum(campaignTypeValues).optional(),
    tags: z.array(z.string()).optional(),
    locked: z.boolean().optional(),
    duration: z.number().int().optional(),
    skipInvalidFiles: z.boolean().optional(),
    affectedHours: z.record(z.string(), z.unknown()).optional(),
    affectedDays: z.record(z.string(), z.unknown()).optional(),
    advertiserId: z.string().optional(),
    advertiserName: z.string().optional().openapi({ description: "The advertiser's name" }),
    advertiser: z.object({ id: z.string(), name: z.string().optional() }).optional().openapi({ description: 'Embedded on `select`' }),
    playedAssetTeamAccessList: z.record(z.string(), z.unknown()).optional(),
    playMultipleItemsInSinglePlaybackSlot: z.boolean().optional(),
    playAllItemsInSinglePlaybackSlot: z.boolean().optional(),
    playbackSlotItemType: z.enum(playbackSlotItemTypeValues).optional(),
    playbackSlotDuration: z.number().int().optional(),
    playbackSlotNumberOfElementsToPlay: z.number().int().optional(),
    createDate: epochMs.optional().openapi({ description: 'Epoch ms' }),
    customer: ref.extend({ id: intId.optional() }).optional(),
    creator: who.optional(),
    lastSavedBy: who.optional(),
    contentQuickFilter: ref.optional(),
    fileQuickFilter: ref.optional(),
    deviceQuickFilter: ref.optional(),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
    affectedScreenCount: z.number().int().optional().openapi({ description: 'Select-only: screens the campaign targets' }),
    teamAccessList: CampaignTeamAccessListSchema.optional().openapi({ description: "Select-only in lists: the campaign's teams" }),
    messageGroupAssignments: z.array(intIdName).optional(),
    teamAssignments: z.array(idName).optional(),
  }),
).openapi('Campaign');

export const CampaignListQueryExtension = {
  includeReadOnlyInfo: booleanQuery('Adds `readOnly` to each campaign'),
  includeResourcesWithoutTeam: booleanQuery('Also list campaigns assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

export const PlayerDeviceSchema = z.object({ id: z.string(), name: z.string() }).openapi('CampaignPlayerDevice');

export const CampaignAiringSchema = z
  .object({
    id: intId,
    nextAiring: epochMs.nullable().openapi({
      description:
        'Epoch ms: the earliest instant ≥ `at` within 14 days at which the time rules hold on one of its screens and it has a playable item; null: none (disabled, no screens, nothing to play, not in the window)',
    }),
    airingEnd: epochMs.nullable().openapi({ description: 'Epoch ms: when that airing ends; null when it runs past the window' }),
    hasItems: z.boolean().openapi({
      description:
        'false: nothing to play within the 14 days (no content or files, an empty folder, a quick filter matching nothing, only files `skipInvalidFiles` leaves out or outside their validity, no sub-channel with any)',
    }),
  })
  .openapi('CampaignAiring');

export type CampaignAiring = z.infer<typeof CampaignAiringSchema>;

/** The ids a campaign's or a message's body may carry, by kind (each checked against the tenant: another tenant's answers 404). */
export const channelBodyIds = {
  'body.contentQuickFilterId': 'quickFilter',
  'body.fileQuickFilterId': 'quickFilter',
  'body.deviceQuickFilterId': 'quickFilter',
  'body.contentAssignment.assignments[].contentId': 'deviceContent',
  'body.contentGroupAssignment.assignments[].contentGroupId': 'contentGroup',
  'body.fileAssignment.assignments[].fileId': 'file',
  'body.fileFolderAssignment.assignments[].fileFolderId': 'fileFolder',
  'body.deviceAssignment.assignments[].deviceId': 'device',
  'body.deviceGroupAssignment.assignments[].deviceGroupId': 'deviceGroup',
  'body.teamAccessList.teams[].id': 'team',
} as const;

export type Campaign = z.infer<typeof CampaignSchema>;
export type CampaignCreate = z.output<typeof CampaignCreateSchema>;
export type CampaignUpdate = z.output<typeof CampaignUpdateSchema>;
export type CampaignTeamAccessListInput = z.infer<typeof CampaignTeamAccessListInputSchema>;

import { z } from '@hono/zod-openapi';
import { combinationIssue, intId, resourceName } from '@/server/http/wire.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { updateBody } from '@/server/http/update-body';
import { projected } from '@/server/query/projection.schemas';
import { ContentData, PlaylistData, PlaylistItem, SlideDocument } from './content-data.schemas';
import { slideDataOf } from './slide-document.schemas';
import { selectTeamIdsParam } from '@/server/modules/teams/teams.schemas';

/*
 * Wire shapes of device content (spec 2 "Content"): slides and interactive content (`/api/content`),
 * playlists (`/api/simpleLoop`) and their combined list (`/api/v2/deviceContent`). No server imports.
 */

export const deviceContentTypes = ['content', 'simpleLoop'] as const;
export const structureTypes = ['SLIDE', 'COMPLEX'] as const;
const simpleLoopTypes = ['NORMAL', 'EINK'] as const;
export const contentOrientations = ['landscape', 'portrait', 'square'] as const;

const contentComment = z.string().max(4_000);
const usage = z.array(z.record(z.string(), z.unknown()));

/** A slide document as a request carries it (keyed by page name), handed to the service as the stored page list. */
const slideDataIn = SlideDocument.transform(slideDataOf);

export const DeviceContentSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional(),
    comment: z.string().optional(),
    customerId: intId.optional(),
    deviceContentType: z.enum(deviceContentTypes).optional(),
    structureType: z.enum(structureTypes).optional().openapi({ description: 'Slides and interactive content only' }),
    simpleLoopType: z.enum(simpleLoopTypes).optional().openapi({ description: 'Playlists only' }),
    version: z.string().optional(),
    locked: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
    createdDate: z.string().optional(),
    lastSaved: z.string().optional().openapi({ description: 'ISO-8601 UTC' }),
    lastSavedBy: z.object({ email: z.string().optional(), name: z.string().optional() }).optional(),
    contentGroupId: z.string().uuid().optional(),
    contentGroup: z.object({ id: z.string().uuid().optional(), name: z.string().optional() }).optional(),
    contentGroupPath: z
      .string()
      .optional()
      .openapi({ description: "Content folder ids from the root down to the item's folder, joined by `/`" }),
    assignedDeviceCount: z.number().int().optional().openapi({ description: 'Computed: screens the item is assigned to' }),
    previewPath: z.string().optional().openapi({ description: 'Computed: the console page that previews the item' }),
    orientation: z.enum(contentOrientations).optional().openapi({ description: 'Computed from the resolution of the (first) page' }),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
    data: ContentData.openapi({
      description:
        "The document: a slide's or interactive content's pages keyed by name (SlideDocument), or a playlist (PlaylistData); only when selected or when one item is read",
    }).optional(),
    firstItem: PlaylistItem.optional().openapi({
      description:
        "Select-only: a playlist's first item (`data.slides[0]`), for a preview without the whole document; null for slides and empty playlists",
    }),
    contentMetaData: z
      .object({ quickEditWidgets: z.array(z.object({ page: z.string(), id: z.string(), type: z.string(), name: z.string().optional() })) })
      .optional()
      .openapi({ description: 'Select-only: the widgets a playlist may override (`quickEdit: true`)' }),
    usageDetails: usage.optional().openapi({ description: 'Select-only: content that embeds this item' }),
    campaignUsageDetails: usage.optional().openapi({ description: 'Select-only: channels using the item' }),
    topLevelCampaignUsageDetails: usage.optional().openapi({ description: 'Select-only: schedules using the item' }),
    messageUsageDetails: usage.optional().openapi({ description: 'Select-only: sub-channels using the item' }),
  }),
).openapi('DeviceContent');

export const DeviceContentListQueryExtension = {
  includeContents: booleanQuery('List slides and interactive content', true),
  includeLoops: booleanQuery('List playlists', true),
  includeSchedules: booleanQuery('List schedules (none are device content yet)', true),
  contentGroupId: z.string().uuid().optional().openapi({ format: 'uuid', description: 'Only items directly in this content folder' }),
  quickFilterId: z.string().uuid().optional().openapi({ format: 'uuid', description: 'A CONTENT quick filter, ANDed with `search`' }),
  includeReadOnlyInfo: booleanQuery('Adds `readOnly` to each item'),
  includeResourcesWithoutTeam: booleanQuery('Also list items assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

export const ONE_PAGE = 'A slide has exactly one page (one key in `data`); interactive content (COMPLEX) has several';

/** POST /api/content: a slide (one page) or interactive content (pages). */
export const ContentCreateSchema = z
  .object({
    name: resourceName,
    structureType: z
      .enum(structureTypes)
      .openapi({ description: 'SLIDE: `data` has exactly one page; COMPLEX (interactive content): one or more' }),
    version: z.enum(['1.0', '']).optional(),
    comment: contentComment.optional(),
    data: slideDataIn,
  })
  .superRefine(onePageSlide)
  .openapi('ContentCreate');

/** POST /api/simpleLoop: a playlist; `version` must be `2.0`. */
export const SimpleLoopCreateSchema = z
  .object({
    name: resourceName,
    simpleLoopType: z.enum(simpleLoopTypes),
    version: z.literal('2.0', { error: 'A playlist has version 2.0' }),
    comment: contentComment.optional(),
    data: PlaylistData,
  })
  .openapi('SimpleLoopCreate');

const updateShape = { name: resourceName, comment: contentComment, resetComment: z.boolean() };

/** PUT /api/content/{id}: `resetComment: true` clears the comment (an empty comment does not). */
export const ContentUpdateSchema = updateBody('ContentUpdate', { ...updateShape, data: slideDataIn });
export const SimpleLoopUpdateSchema = updateBody('SimpleLoopUpdate', { ...updateShape, data: PlaylistData });

export const DuplicateSchema = z.object({ name: resourceName }).openapi('ContentDuplicate');

export const FromTemplateSchema = z.object({ name: resourceName }).openapi('ContentFromTemplate');

export const ContentTagListSchema = tagListOf(500).openapi('ContentTagList');

/** `GET /api/{content or simpleLoop}/usageDetails`: for each matching item, the content that embeds it. */
export const UsageDetailsSchema = z
  .array(
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      deviceContentType: z.enum(deviceContentTypes),
      usedBy: z.array(z.object({ id: z.string().uuid(), name: z.string(), deviceContentType: z.enum(deviceContentTypes) })),
    }),
  )
  .openapi('ContentUsageDetails');

/** `GET /api/{content or simpleLoop}/getDeviceOnlineOfflineRatio`: screens showing the matching items. */
export const OnlineOfflineRatioSchema = z
  .object({ online: z.number().int(), offline: z.number().int(), total: z.number().int() })
  .openapi('DeviceOnlineOfflineRatio');

/** A starter template (`GET /api/template`). */
export const TemplateSchema = projected(
  z.object({
    id: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    structureType: z.enum(structureTypes).optional(),
    tags: z.array(z.string()).optional(),
    orientation: z.enum(contentOrientations).optional(),
    data: SlideDocument.optional(),
  }),
).openapi('Template');

/** Runs after the document's own checks, also when they failed (then `data` is as sent, not the page list). */
function onePageSlide(body: { structureType: string; data: { pages?: unknown } }, ctx: z.RefinementCtx): void {
  const { pages } = body.data;
  if (body.structureType === 'SLIDE' && Array.isArray(pages) && pages.length !== 1) combinationIssue(ctx, ['data'], ONE_PAGE);
}

export type DeviceContent = z.infer<typeof DeviceContentSchema>;
export type Template = z.infer<typeof TemplateSchema>;

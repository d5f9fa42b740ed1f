import { z } from '@hono/zod-openapi';
import { intId, resourceName } from '@/server/http/wire.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { projected } from '@/server/query/projection.schemas';
import { selectTeamIdsParam } from '@/server/modules/teams/teams.schemas';

/*
 * Wire shapes of content folders (spec 2 "Content folder (contentGroup)" and the contentGroup endpoints,
 * DECISIONS §6 for the list and single reads). No server imports: the console reuses these for forms and types.
 */

const ContentGroupNameSchema = resourceName;

export const ContentGroupSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional().openapi({ description: 'Absent on the root folder' }),
    customerId: intId.optional(),
    parentId: z.string().uuid().optional().openapi({ description: 'Absent (null) for the root' }),
    contentGroupPath: z.string().optional().openapi({
      description:
        'Folder ids from the root down to this folder, joined by `/`; search `contentGroupPath:{id}` finds the folder and every folder below it',
    }),
    isTemplateGroup: z.boolean().optional().openapi({ description: 'The Templates folder of the customer' }),
    createdDate: z.string().optional(),
    contentCount: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Slides and interactive content directly in the folder (select-only)' }),
    simpleLoopCount: z.number().int().optional().openapi({ description: 'Playlists directly in the folder (select-only)' }),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
    campaignUsageDetails: z.unknown().optional(),
    topLevelCampaignUsageDetails: z.unknown().optional(),
    messageUsageDetails: z.unknown().optional(),
  }),
).openapi('ContentGroup');

export const ContentGroupListQueryExtension = {
  includeReadOnlyInfo: booleanQuery('Adds `readOnly` (the caller may only read the item through its teams) to each item'),
  includeResourcesWithoutTeam: booleanQuery('Also list folders assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

/** POST /api/contentGroup?parentGroupId=: `{name, deviceContentType: content}`. */
export const ContentGroupCreateSchema = z
  .object({
    name: ContentGroupNameSchema.openapi({ description: 'Unique among its siblings (case-insensitive)' }),
    deviceContentType: z.literal('content').optional().default('content').openapi({ description: 'Always `content`' }),
  })
  .openapi('ContentGroupCreate');

/** PUT /api/contentGroup/{id}: `{name}`. */
export const ContentGroupRenameSchema = z.object({ name: ContentGroupNameSchema }).openapi('ContentGroupRename');

/** POST /api/contentGroup/move. */
export const ContentGroupMoveSchema = z
  .object({
    contentGroupIds: z.array(z.string().uuid()).max(10_000).optional().default([]),
    contentIds: z.array(z.string().uuid()).max(10_000).optional().default([]),
    targetGroupId: z.string().uuid(),
  })
  .openapi('ContentGroupMove');

export const removeContentsParam = booleanQuery("true deletes the folder's content; false moves it to the root folder", false);

export type ContentGroup = z.infer<typeof ContentGroupSchema>;
export type ContentGroupMove = z.infer<typeof ContentGroupMoveSchema>;

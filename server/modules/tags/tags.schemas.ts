import { z } from '@hono/zod-openapi';
import { clearable, updateBody } from '@/server/http/update-body';

/*
 * Wire shapes of the tag registry (spec 3 "Tag"). No server imports beyond zod helpers: the console reuses these.
 */

export const tagTypeValues = ['DEVICE', 'CONTENT', 'CAMPAIGN', 'MESSAGE', 'FILE'] as const;

/** The listing groups of spec 3 and the tag type each one lists. */
export const tagGroups = {
  deviceTags: 'DEVICE',
  deviceContentTags: 'CONTENT',
  campaignTags: 'CAMPAIGN',
  messageTags: 'MESSAGE',
  fileTags: 'FILE',
} as const satisfies Record<string, (typeof tagTypeValues)[number]>;

export type TagGroup = keyof typeof tagGroups;

export const TagTypeSchema = z.enum(tagTypeValues).openapi({ description: 'Tag type', example: 'FILE' });

export const TagInfoSchema = z.object({
  count: z.number().int().openapi({ description: 'How many rows of the type carry the tag' }),
  comment: z.string().optional(),
});

export const TagListingSchema = z
  .object(Object.fromEntries(Object.keys(tagGroups).map((g) => [g, z.record(z.string(), TagInfoSchema).optional()])) as Record<TagGroup, z.ZodOptional<z.ZodRecord<z.ZodString, typeof TagInfoSchema>>>)
  .openapi('TagListing', { description: '`{<group>: {<tag>: {count, comment}}}` for each selected group' });

export const TagSchema = z
  .object({ tag: z.string(), tagType: TagTypeSchema, comment: z.string().optional(), count: z.number().int() })
  .openapi('Tag');

export const TagCreateSchema = z
  .object({ tag: z.string().openapi({ example: 'lobby' }), comment: z.string().max(2048).nullable().optional() })
  .openapi('TagCreate');

export const TagUpdateSchema = updateBody('TagUpdate', { comment: clearable(z.string().max(2048)) });

export type TagCreate = z.infer<typeof TagCreateSchema>;
export type TagUpdate = z.infer<typeof TagUpdateSchema>;

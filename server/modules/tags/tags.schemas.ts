import { z } from '@hono/zod-openapi';
import { clearable, updateBody } from '@/server/http/update-body';

/*
 * Wire shapes of the tag registry (spec 3 "Tag"). No server imports beyond zod helpers: the console reuses these.
 */

/** All tags of one item joined by commas may not exceed this (spec 3 "at most 2048 characters total"). */
export const maxTagsTotalLength = 2048;

/**
 * Spec 3's tag syntax: letters (any script, with combining marks), decimal digits and - _ # . " ; never a leading
 * '-'; no whitespace anywhere. The OpenAPI pattern is this expression (ECMAScript syntax with Unicode classes).
 */
export const TAG_PATTERN = /^[\p{L}\p{Nd}_#."][\p{L}\p{M}\p{Nd}_#."-]*$/u;

const tagMessage = "A tag is not empty, does not start with '-', and holds only letters, digits and - _ # . \"";

/** One tag as items carry it (the total length of an item's tags is checked on the list: `maxTagsTotalLength`). */
// `pattern` is given explicitly: the generator would write the regular expression's `u` flag into it.
export const tagSchema = z
  .string()
  .max(maxTagsTotalLength)
  .regex(TAG_PATTERN, tagMessage)
  .openapi({ pattern: TAG_PATTERN.source, example: 'lobby' });

/** The tags of an item (replaced as a whole); together at most `maxTagsTotalLength` characters joined by commas. */
export const tagListOf = (max: number) =>
  z
    .array(tagSchema)
    .max(max)
    .openapi({ description: `Tags (spec 3 syntax); joined by commas at most ${maxTagsTotalLength} characters together` });

/**
 * Tags as one query value (a simple upload's `tags`): comma-separated, each trimmed, empty ones skipped, each of
 * the tag syntax. The pattern says exactly that.
 */
const TAG_TEXT = TAG_PATTERN.source.slice(1, -1);
const TAG_CSV_PATTERN = new RegExp(`^\\s*(?:${TAG_TEXT}\\s*)?(?:,\\s*(?:${TAG_TEXT}\\s*)?)*$`, 'u');
export const tagCsvParam = z.string().regex(TAG_CSV_PATTERN, tagMessage).openapi({
  pattern: TAG_CSV_PATTERN.source,
  description: 'Comma-separated tags (spec 3 syntax); joined by commas at most 2048 characters together',
  example: 'lobby,entrance',
});

/** The body of a bulk `tags/remove`: any tags, so that a tag of any age can be removed. */
export const TagRemovalListSchema = z
  .array(z.string().max(maxTagsTotalLength))
  .max(500)
  .openapi('TagRemovalList', { description: 'Tags to remove (any text)' });

export const tagTypeValues = ['DEVICE', 'CONTENT', 'CAMPAIGN', 'MESSAGE', 'FILE', 'DATASOURCE'] as const;

/** The listing groups of spec 3 and the tag type each one lists. */
export const tagGroups = {
  deviceTags: 'DEVICE',
  deviceContentTags: 'CONTENT',
  campaignTags: 'CAMPAIGN',
  messageTags: 'MESSAGE',
  fileTags: 'FILE',
  datasourceTags: 'DATASOURCE',
} as const satisfies Record<string, (typeof tagTypeValues)[number]>;

export type TagGroup = keyof typeof tagGroups;

/** What tag suggestions take as `entity`: a tag type or a listing group, spelled so. An empty value counts as omitted (every type). */
export const tagEntityParam = z
  .preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum([...tagTypeValues, ...(Object.keys(tagGroups) as TagGroup[])]).optional(),
  )
  .openapi({ description: 'A tag type (`FILE`, …) or group (`fileTags`, …); default all types' });

export const TagTypeSchema = z.enum(tagTypeValues).openapi({ description: 'Tag type', example: 'FILE' });

export const TagInfoSchema = z.object({
  count: z.number().int().openapi({ description: 'How many rows of the type carry the tag' }),
  comment: z.string().optional(),
});

export const TagListingSchema = z
  .object(
    Object.fromEntries(Object.keys(tagGroups).map((g) => [g, z.record(z.string(), TagInfoSchema).optional()])) as Record<
      TagGroup,
      z.ZodOptional<z.ZodRecord<z.ZodString, typeof TagInfoSchema>>
    >,
  )
  .openapi('TagListing', { description: '`{<group>: {<tag>: {count, comment}}}` for each selected group' });

export const TagSchema = z
  .object({ tag: z.string(), tagType: TagTypeSchema, comment: z.string().optional(), count: z.number().int() })
  .openapi('Tag');

export const TagCreateSchema = z.object({ tag: tagSchema, comment: z.string().max(2048).nullable().optional() }).openapi('TagCreate');

export const TagUpdateSchema = updateBody('TagUpdate', { comment: clearable(z.string().max(2048)) });

export type TagCreate = z.infer<typeof TagCreateSchema>;
export type TagUpdate = z.infer<typeof TagUpdateSchema>;

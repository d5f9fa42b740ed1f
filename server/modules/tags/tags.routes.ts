import { z } from '@hono/zod-openapi';
import { customerIdParam, json } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { TagCreateSchema, tagEntityParam, TagListingSchema, TagSchema, TagTypeSchema, TagUpdateSchema, tagGroups } from './tags.schemas';

const tags = ['Tags'];
const tagKeyQuery = z.object({
  customerId: customerIdParam,
  tag: z.string().min(1).openapi({ description: 'The tag', example: 'lobby' }),
  tagType: TagTypeSchema,
});

export const listTagsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/tag',
    operationId: 'listTags',
    tags,
    summary: 'Tags of the tenant by group, with use counts and comments',
    description: 'Lists registered tags (also those no row carries yet: count 0) and tags in use.',
    request: {
      query: z.object({
        customerId: customerIdParam,
        select: z
          .string()
          .optional()
          .openapi({ description: `Comma-separated groups: ${Object.keys(tagGroups).join(', ')}; default all` }),
      }),
    },
    responses: { 200: { description: 'Tags by group', ...json(TagListingSchema) } },
  },
);

export const suggestTagsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/tag/suggest',
    operationId: 'suggestTags',
    tags,
    summary: 'Tags starting with a keyword, most used first (at most 20)',
    request: {
      query: z.object({
        customerId: customerIdParam,
        keyword: z.string().max(2048).optional().openapi({ description: 'Prefix, case-insensitive; empty: the most used tags' }),
        entity: tagEntityParam,
      }),
    },
    responses: { 200: { description: 'Matching tags', ...json(z.array(z.string())) } },
  },
);

export const createTagRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/tag',
    operationId: 'createTag',
    tags,
    summary: 'Register a tag with a comment',
    description:
      'The tag must follow the format rules (its pattern; 400 `request.error.invalid`); an existing tag of the type is a 409 `tag.error.exists`.',
    request: {
      query: z.object({ customerId: customerIdParam, tagType: TagTypeSchema }),
      body: { required: true, ...json(TagCreateSchema) },
    },
    responses: { 201: { description: 'The registered tag', ...json(TagSchema) }, ...conflictError },
  },
);

export const updateTagRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/tag',
    operationId: 'updateTag',
    tags,
    summary: "Change a tag's comment",
    request: { query: tagKeyQuery, body: { required: true, ...json(TagUpdateSchema) } },
    responses: { 200: { description: 'The tag', ...json(TagSchema) } },
  },
);

export const deleteTagRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/tag',
    operationId: 'deleteTag',
    tags,
    summary: 'Delete a registered tag',
    description: 'Refused with 409 `tag.error.inUse` (details `count`) while any row of the type carries the tag.',
    request: { query: tagKeyQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
);

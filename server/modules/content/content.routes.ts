import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { SEARCH_DESCRIPTION } from '@/server/query/search/description';
import { TagRemovalListSchema } from '@/server/modules/tags/tags.schemas';
import {
  ContentTagListSchema,
  DeviceContentListQueryExtension,
  DeviceContentSchema,
  FromTemplateSchema,
  TemplateSchema,
} from './content.schemas';
import { SELECT_TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';

/** The combined list and the routes that act on either kind (spec 2 "Content"); the per-kind writes are in content-items.routes.ts. */

export const CONTENT_BODY_LIMIT = 4 * 1024 * 1024;

const tags = ['Content'];
const idPath = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
});
const itemResponse = (description: string) => ({ description, ...json(DeviceContentSchema) });

export const listDeviceContentRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/deviceContent',
    operationId: 'listDeviceContent',
    tags,
    summary: 'Slides, interactive content and playlists, paged',
    description:
      'One list over both kinds (`deviceContentType` `content` or `simpleLoop`). Search `contentGroupId={id}` or `contentGroupPath:{id}` for a folder (and below). ' +
      '`data`, `assignedDeviceCount`, `contentMetaData` and the usage fields are returned only when named in `select`.',
    request: { query: ScopedListQuerySchema.extend(DeviceContentListQueryExtension) },
    responses: { 200: { description: 'A page of content', ...json(pageOf(DeviceContentSchema, 'DeviceContentPage')) } },
  },
  {
    resourceIds: { 'query.contentGroupId': 'contentGroup', 'query.quickFilterId': 'quickFilter' },
    notResourceIds: SELECT_TEAM_IDS_EXEMPTION,
  },
);

export const getDeviceContentRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/deviceContent/{id}',
    operationId: 'getDeviceContent',
    tags,
    summary: 'One slide, interactive content or playlist, with its document',
    request: {
      params: idPath,
      query: z.object({
        customerId: customerIdParam,
        select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }),
      }),
    },
    responses: { 200: itemResponse('The item') },
  },
  { resourceIds: { 'path.id': 'deviceContent' } },
);

export const setContentTagsRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'post',
    path: '/api/deviceContent/{id}/setTags',
    operationId: 'setTagsOfDeviceContent',
    tags,
    summary: 'Replace the tags of one item',
    request: { params: idPath, body: { required: true, ...json(ContentTagListSchema) } },
    responses: { 200: itemResponse('The item'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceContent' } },
);

const bulkTagsRoute = (verb: 'add' | 'set' | 'remove', summary: string) =>
  defineRoute(
    { minRole: 'EDITOR', tenant: 'scoped' },
    {
      method: 'post',
      path: `/api/v2/deviceContent/tags/${verb}`,
      operationId: `${verb}DeviceContentTags`,
      tags,
      summary,
      description:
        'Applies to every item matching `search` (all when absent) that the caller may write and that is not locked; answers how many changed.',
      request: {
        query: z.object({
          customerId: customerIdParam,
          search: z
            .string()
            .optional()
            .openapi({ description: `Which items. ${SEARCH_DESCRIPTION}` }),
        }),
        body: { required: true, ...json(verb === 'remove' ? TagRemovalListSchema : ContentTagListSchema) },
      },
      responses: {
        200: { description: 'How many items changed', ...json(z.object({ updated: z.number().int() }).openapi('ContentBulkResult')) },
      },
    },
  );

export const addContentTagsRoute = bulkTagsRoute('add', 'Add tags to the matching content');
export const setBulkContentTagsRoute = bulkTagsRoute('set', 'Replace the tags of the matching content');
export const removeContentTagsRoute = bulkTagsRoute('remove', 'Remove tags from the matching content');

export const listTemplatesRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/template',
    operationId: 'listTemplates',
    tags,
    summary: 'The starter templates',
    description:
      "Search by `tags` (e.g. `tags:menu`) or `name`; `data` only when selected. A tenant's own templates are the content of its Templates folder.",
    request: { query: ListQuerySchema },
    responses: { 200: { description: 'A page of templates', ...json(pageOf(TemplateSchema, 'TemplatePage')) } },
  },
);

export const createFromTemplateRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/content/fromTemplate/{templateId}',
    operationId: 'createContentFromTemplate',
    tags,
    summary: 'Create a slide from a template',
    description:
      "From a starter template, or from one of the tenant's own slides (its Templates folder). Into `contentGroupId`, or the root folder when absent.",
    request: {
      params: z.object({
        templateId: z
          .string()
          .uuid()
          .openapi({ param: { name: 'templateId', in: 'path' }, format: 'uuid' }),
      }),
      query: z.object({ customerId: customerIdParam, contentGroupId: z.string().uuid().optional().openapi({ format: 'uuid' }) }),
      body: { required: true, ...json(FromTemplateSchema) },
    },
    responses: { 201: itemResponse('The created slide'), ...conflictError },
  },
  { resourceIds: { 'path.templateId': 'deviceContent', 'query.contentGroupId': 'contentGroup' } },
);

import { z } from '@hono/zod-openapi';
import { customerIdParam, json } from '@/server/http/list-query';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { teamIdsParam, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';
import { SEARCH_DESCRIPTION } from '@/server/query/search/description';
import { CONTENT_BODY_LIMIT } from './content.routes';
import {
  ContentCreateSchema,
  ContentUpdateSchema,
  DeviceContentSchema,
  DuplicateSchema,
  OnlineOfflineRatioSchema,
  SimpleLoopCreateSchema,
  SimpleLoopUpdateSchema,
  UsageDetailsSchema,
} from './content.schemas';

/*
 * The per-kind writes of spec 2: `/api/content` (slides and interactive content) and `/api/simpleLoop`
 * (playlists) have the same verbs; each route is declared once per kind from the same description.
 */

type Kind = 'content' | 'simpleLoop';

const WORDS: Record<Kind, { one: string; tag: string; op: string }> = {
  content: { one: 'slide or interactive content', tag: 'Content', op: 'Content' },
  simpleLoop: { one: 'playlist', tag: 'Playlists', op: 'SimpleLoop' },
};

const idPath = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
});
const itemResponse = (description: string) => ({ description, ...json(DeviceContentSchema) });
const autoSave = booleanQuery('An automatic save of the editor (audited as `autoSave`)');
const locked = 'Locked items refuse every change (409 `content.error.locked`).';
const embedding =
  "The document is validated (400 naming the path); every file, folder and content it references must be the tenant's own (404), content of the kind the place allows (409 `content.error.embedding`) and never the item itself, directly or through nested content (409 `content.error.cycle`). " +
  'Bodies over 4 MiB: 413.';

/** Everything of a create route but its body, whose type the handler reads. */
function createConfig(kind: Kind) {
  return {
    method: 'post' as const,
    path: `/api/${kind}`,
    operationId: `create${WORDS[kind].op}`,
    tags: [WORDS[kind].tag],
    summary: `Create a ${WORDS[kind].one}`,
    description: `${kind === 'simpleLoop' ? '`version` must be `2.0`. ' : 'A SLIDE has one page, COMPLEX content several. '}${embedding}`,
    responses: { 201: itemResponse('The created item'), ...conflictError },
  };
}

const createQuery = z.object({
  customerId: customerIdParam,
  contentGroupId: z.string().uuid().openapi({ format: 'uuid', description: 'The content folder' }),
  teamIds: teamIdsParam,
});
const createOptions = {
  bodyLimit: CONTENT_BODY_LIMIT,
  resourceIds: { 'query.contentGroupId': 'contentGroup' },
  notResourceIds: TEAM_IDS_EXEMPTION,
} as const;

/** Everything of an update route but its body. */
function updateConfig(kind: Kind) {
  return {
    method: 'put' as const,
    path: `/api/${kind}/{id}`,
    operationId: `update${WORDS[kind].op}`,
    tags: [WORDS[kind].tag],
    summary: `Save a ${WORDS[kind].one}: name, comment, document`,
    description: `\`resetComment: true\` clears the comment (an empty comment does not). ${locked} ${embedding}`,
    responses: { 200: itemResponse('The saved item'), ...conflictError },
  };
}

const updateOptions = { bodyLimit: CONTENT_BODY_LIMIT, resourceIds: { 'path.id': 'deviceContent' } } as const;

function lockRoute(kind: Kind) {
  return defineRoute(
    { minRole: 'APPROVER', tenant: 'none' },
    {
      method: 'post',
      path: `/api/${kind}/lock/{id}/{locked}`,
      operationId: `lock${WORDS[kind].op}`,
      tags: [WORDS[kind].tag],
      summary: `Lock or unlock a ${WORDS[kind].one}`,
      description: 'A locked item refuses every change until it is unlocked. Locking a locked item changes nothing.',
      request: { params: idPath.extend({ locked: z.enum(['true', 'false']).openapi({ param: { name: 'locked', in: 'path' } }) }) },
      responses: { 200: itemResponse('The item') },
    },
    { resourceIds: { 'path.id': 'deviceContent' } },
  );
}

function deleteRoute(kind: Kind) {
  return defineRoute(
    { minRole: 'EDITOR', tenant: 'none' },
    {
      method: 'delete',
      path: `/api/${kind}/{id}`,
      operationId: `delete${WORDS[kind].op}`,
      tags: [WORDS[kind].tag],
      summary: `Delete a ${WORDS[kind].one}`,
      description: `${locked} Content embedded in other content is refused (409 \`content.error.inUse\`, naming the users).`,
      request: { params: idPath, query: z.object({ autoSave }) },
      responses: { 204: { description: 'Deleted' }, ...conflictError },
    },
    { resourceIds: { 'path.id': 'deviceContent' } },
  );
}

function usageRoute(kind: Kind) {
  return defineRoute(
    { minRole: 'VIEWER', tenant: 'scoped' },
    {
      method: 'get',
      path: `/api/${kind}/usageDetails`,
      operationId: `get${WORDS[kind].op}UsageDetails`,
      tags: [WORDS[kind].tag],
      summary: `Where matching ${WORDS[kind].one} items are embedded`,
      description: 'For each item matching `search` (at most 1 000), the content that embeds it.',
      request: {
        query: z.object({ customerId: customerIdParam, search: z.string().optional().openapi({ description: SEARCH_DESCRIPTION }) }),
      },
      responses: { 200: { description: 'Usage per item', ...json(UsageDetailsSchema) } },
    },
  );
}

function ratioRoute(kind: Kind) {
  return defineRoute(
    { minRole: 'VIEWER', tenant: 'scoped' },
    {
      method: 'get',
      path: `/api/${kind}/getDeviceOnlineOfflineRatio`,
      operationId: `get${WORDS[kind].op}DeviceOnlineOfflineRatio`,
      tags: [WORDS[kind].tag],
      summary: 'Online and offline screens showing the matching items',
      request: {
        query: z.object({ customerId: customerIdParam, search: z.string().optional().openapi({ description: SEARCH_DESCRIPTION }) }),
      },
      responses: { 200: { description: 'Screen counts', ...json(OnlineOfflineRatioSchema) } },
    },
  );
}

export const createContentRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  { ...createConfig('content'), request: { query: createQuery, body: { required: true, ...json(ContentCreateSchema) } } },
  createOptions,
);
export const createSimpleLoopRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  { ...createConfig('simpleLoop'), request: { query: createQuery, body: { required: true, ...json(SimpleLoopCreateSchema) } } },
  createOptions,
);
export const updateContentRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    ...updateConfig('content'),
    request: { params: idPath, query: z.object({ autoSave }), body: { required: true, ...json(ContentUpdateSchema) } },
  },
  updateOptions,
);
export const updateSimpleLoopRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    ...updateConfig('simpleLoop'),
    request: { params: idPath, query: z.object({ autoSave }), body: { required: true, ...json(SimpleLoopUpdateSchema) } },
  },
  updateOptions,
);
export const lockRoutes = { content: lockRoute('content'), simpleLoop: lockRoute('simpleLoop') } as const;
export const deleteRoutes = { content: deleteRoute('content'), simpleLoop: deleteRoute('simpleLoop') } as const;
export const usageRoutes = { content: usageRoute('content'), simpleLoop: usageRoute('simpleLoop') } as const;
export const ratioRoutes = { content: ratioRoute('content'), simpleLoop: ratioRoute('simpleLoop') } as const;

export const duplicateContentRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'post',
    path: '/api/content/duplicate/{id}',
    operationId: 'duplicateContent',
    tags: ['Content'],
    summary: 'Copy a slide or interactive content',
    description: 'The copy (document, comment and tags) lands beside the original and is answered.',
    request: { params: idPath, body: { required: true, ...json(DuplicateSchema) } },
    responses: { 201: itemResponse('The copy'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceContent' } },
);

export const duplicateSimpleLoopRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'post',
    path: '/api/simpleLoop/duplicate/{id}',
    operationId: 'duplicateSimpleLoop',
    tags: ['Playlists'],
    summary: 'Copy a playlist',
    description: 'The copy lands beside the original; nothing is answered (spec 2).',
    request: { params: idPath, body: { required: true, ...json(DuplicateSchema) } },
    responses: { 204: { description: 'Copied' }, ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceContent' } },
);

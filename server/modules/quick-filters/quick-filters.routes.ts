import { z } from '@hono/zod-openapi';
import { customerIdParam, json, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { teamIdsParam, TeamReadQueryExtension, SELECT_TEAM_IDS_EXEMPTION, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';
import { QuickFilterCreateSchema, QuickFilterSchema, QuickFilterUpdateSchema } from './quick-filters.schemas';

const tags = ['Quick filters'];
const idQuery = z.object({
  customerId: customerIdParam,
  quickFilterId: z.string().openapi({ description: 'The quick filter', format: 'uuid' }),
});

export const listQuickFiltersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/quickFilter',
    operationId: 'listQuickFilters',
    tags,
    summary: 'Quick filters, paged',
    description: "Team visibility applies. `readOnly`: used by channels or sub-channels, or only read-only through the caller's teams.",
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of quick filters', ...json(pageOf(QuickFilterSchema, 'QuickFilterPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getQuickFilterRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/quickFilter/{id}',
    operationId: 'getQuickFilter',
    tags,
    summary: 'One quick filter',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: SelectQuerySchema.extend({ customerId: customerIdParam }),
    },
    responses: { 200: { description: 'The quick filter', ...json(QuickFilterSchema) } },
  },
  { resourceIds: { 'path.id': 'quickFilter' } },
);

export const createQuickFilterRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/quickFilter',
    operationId: 'createQuickFilter',
    tags,
    summary: 'Save a filter',
    description:
      'Names are unique per customer (409 `quickFilter.error.nameExists`). `criteria.type` must equal `filteredEntityType`; a FILE ' +
      "filter's `search` must compile against the file fields (400 with the position). Counts against the `QUICK_FILTER` resource limit.",
    request: {
      query: z.object({
        customerId: customerIdParam,
        teamIds: teamIdsParam,
      }),
      body: { required: true, ...json(QuickFilterCreateSchema) },
    },
    responses: { 201: { description: 'The created quick filter', ...json(QuickFilterSchema) }, ...conflictError },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateQuickFilterRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/quickFilter',
    operationId: 'updateQuickFilter',
    tags,
    summary: 'Change a quick filter (partial)',
    description: '`filteredEntityType` is immutable (400 `quickFilter.error.immutableType`); a filter used by channels is read-only (409).',
    request: { query: idQuery, body: { required: true, ...json(QuickFilterUpdateSchema) } },
    responses: { 200: { description: 'The updated quick filter', ...json(QuickFilterSchema) }, ...conflictError },
  },
  { resourceIds: { 'query.quickFilterId': 'quickFilter' } },
);

export const deleteQuickFilterRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/quickFilter',
    operationId: 'deleteQuickFilter',
    tags,
    summary: 'Delete a quick filter',
    description: 'Refused with 409 `quickFilter.error.inUse` while a filtered folder (or a channel, sub-channel or datasource) uses it.',
    request: { query: idQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'query.quickFilterId': 'quickFilter' } },
);

import { z } from '@hono/zod-openapi';
import { identifyCaller } from '@/server/http/auth-middleware';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { conflictError, sharedErrors } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { SELECT_TEAM_IDS_EXEMPTION, TEAM_IDS_EXEMPTION, TeamReadQueryExtension, teamIdsParam } from '@/server/modules/teams/teams.schemas';
import {
  DataDocumentSchema,
  DatasourceCreateSchema,
  DatasourceSchema,
  DatasourceTestResultSchema,
  DatasourceUpdateSchema,
  DatasourceUsageSchema,
} from './datasources.schemas';

/* Spec 3 "Datasources", spec 5 §2, DECISIONS §6 (the display writes) and §8 (EDITOR writes, VIEWER reads). */
const tags = ['Datasources'];
const read = { minRole: 'VIEWER', tenant: 'scoped' } as const;
const write = { minRole: 'EDITOR', tenant: 'scoped' } as const;
const IdParams = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid', description: 'The datasource' }),
});
const ScopeQuery = z.object({ customerId: customerIdParam });
const datasourceResponse = (description: string) => ({ description, ...json(DatasourceSchema) });
const documentResponse = (description: string) => ({ description, ...json(DataDocumentSchema) });
const byId = { resourceIds: { 'path.id': 'datasource' } } as const;

export const listDatasourcesRoute = defineRoute(
  read,
  {
    method: 'get',
    path: '/api/v2/datasource',
    operationId: 'listDatasources',
    tags,
    summary: 'Datasources, paged',
    description: 'Team visibility applies; by name unless `sort` says otherwise. `usageDetails` only when selected.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of datasources', ...json(pageOf(DatasourceSchema, 'DatasourcePage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getDatasourceRoute = defineRoute(
  read,
  {
    method: 'get',
    path: '/api/v2/datasource/{id}',
    operationId: 'getDatasource',
    tags,
    summary: 'One datasource',
    request: { params: IdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: datasourceResponse('The datasource') },
  },
  byId,
);

export const datasourceUsageDetailsRoute = defineRoute(read, {
  method: 'get',
  path: '/api/datasource/usageDetails',
  operationId: 'getDatasourceUsageDetails',
  tags,
  summary: 'The content that uses datasources, with the widgets that show them',
  description: 'For the datasources `search` finds (every one the caller sees when absent; at most 1 000, by name).',
  request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search }) },
  responses: { 200: { description: 'Usages', ...json(DatasourceUsageSchema) } },
});

export const getDatasourceDataRoute = defineRoute(
  read,
  {
    method: 'get',
    path: '/api/datasource/{id}/data',
    operationId: 'getDatasourceData',
    tags,
    summary: 'The data document of a datasource',
    description:
      'The current document (spec 5 §2; FILES and DEVICES computed now). Documents are stored parsed, so `parseData` answers the same document either way.',
    request: {
      params: IdParams,
      query: ScopeQuery.extend({ parseData: booleanQuery('Accepted for compatibility; the document is always parsed') }),
    },
    responses: { 200: documentResponse('The document') },
  },
  byId,
);

export const createDatasourceRoute = defineRoute(
  write,
  {
    method: 'post',
    path: '/api/datasource',
    operationId: 'createDatasource',
    tags,
    summary: 'Create a datasource in the selected customer',
    description:
      'Names are unique in the customer (409 `datasource.error.nameExists`); the DATASOURCE resource limit applies. An external datasource is refreshed within seconds. Unsupported types: 400 `datasource.error.unsupportedType`. ' +
      'FILE_FROM_URL keeps the remote file in `fileFolderId` (a stored folder of the customer: 404 for another tenant’s or an unknown one, 409 `fileFolder.error.filtered` for a filtered one); the file counts in the tenant’s storage.',
    request: { query: ScopeQuery.extend({ teamIds: teamIdsParam }), body: { required: true, ...json(DatasourceCreateSchema) } },
    responses: { 201: datasourceResponse('The created datasource'), ...conflictError },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION, resourceIds: { 'body.quickFilterId': 'quickFilter', 'body.fileFolderId': 'fileFolder' } },
);

export const testDatasourceRoute = defineRoute(
  write,
  {
    method: 'post',
    path: '/api/datasource/test',
    operationId: 'testDatasource',
    tags,
    summary: 'What a datasource with these settings would hold now, without saving it',
    description:
      'The same checks as a create; the remote is fetched and parsed. A fetch or parse failure answers `{ok: false, error}` (200). ' +
      'FILE_FROM_URL stores nothing: it reads the answer’s headers and first bytes and answers the file it would keep, ' +
      '`{name, contentType, size}` (`size` the declared Content-Length, null when none is sent), or why it would not keep one ' +
      '(not a supported type, larger than the free storage).',
    request: { query: ScopeQuery, body: { required: true, ...json(DatasourceCreateSchema) } },
    responses: { 200: { description: 'The document, or why there is none', ...json(DatasourceTestResultSchema) }, ...conflictError },
  },
  { resourceIds: { 'body.quickFilterId': 'quickFilter', 'body.fileFolderId': 'fileFolder' } },
);

export const updateDatasourceRoute = defineRoute(
  write,
  {
    method: 'put',
    path: '/api/datasource/{id}',
    operationId: 'updateDatasource',
    tags,
    summary: 'Change a datasource (partial)',
    description: 'Omitted or null attributes keep their value. `deactivated: false` reactivates it (the error count starts again).',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(DatasourceUpdateSchema) } },
    responses: { 200: datasourceResponse('The updated datasource'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'datasource', 'body.quickFilterId': 'quickFilter', 'body.fileFolderId': 'fileFolder' } },
);

export const replaceDatasourceDataRoute = defineRoute(
  write,
  {
    method: 'put',
    path: '/api/datasource/{id}/data',
    operationId: 'replaceDatasourceData',
    tags,
    summary: 'Replace the document of an internal datasource',
    description:
      'The body is the whole document; it must fit the structure (400 `datasource.error.invalidDocument`) and 1 MiB. Not internal: 409 `datasource.error.notInternal`.',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(DataDocumentSchema) } },
    responses: { 200: documentResponse('The stored document'), ...conflictError },
  },
  byId,
);

export const refreshDatasourceRoute = defineRoute(
  write,
  {
    method: 'post',
    path: '/api/datasource/refresh/{id}',
    operationId: 'refreshDatasource',
    tags,
    summary: 'Refresh an external datasource',
    description:
      '`sync=true` refreshes within the request and answers the datasource (`lastError` says why a failed refresh failed); otherwise the refresh is queued. Not external or deactivated: 409.',
    request: { params: IdParams, query: ScopeQuery.extend({ sync: booleanQuery('Refresh within the request (default false)') }) },
    responses: { 200: datasourceResponse('The datasource'), ...conflictError },
  },
  byId,
);

export const clearDatasourceCacheRoute = defineRoute(
  write,
  {
    method: 'delete',
    path: '/api/datasource/{id}/clearCache',
    operationId: 'clearDatasourceCache',
    tags,
    summary: 'Forget the remote’s validators: the next refresh (due now) fetches the whole document',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Cleared' } },
  },
  byId,
);

export const deleteDatasourceRoute = defineRoute(
  write,
  {
    method: 'delete',
    path: '/api/datasource/{id}',
    operationId: 'deleteDatasource',
    tags,
    summary: 'Delete a datasource',
    description: 'Refused (409 `datasource.error.inUse`, naming the content) while content uses the datasource.',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  byId,
);

/** What the 429 of a public datasource write says it counts (datasource-write-limit.ts). */
export const ANONYMOUS_WRITE_LIMIT =
  'writes without credentials, per client address (an IPv6 address by its /64) and per datasource (120 and 600 a minute by default: `ANONYMOUS_WRITES_PER_ADDRESS_PER_MINUTE`, `ANONYMOUS_WRITES_PER_DATASOURCE_PER_MINUTE`); users and devices are not counted';

const CALLERS =
  'Callers (DECISIONS §6): a user (EDITOR or higher, the datasource visible and writable for them), a device token of the same customer, or no credentials when the datasource is `editableByDisplay` (otherwise 404, like an unknown id; at most 120 such writes a minute per client address and 600 per datasource by default, then 429 with `Retry-After`). Only INTERNAL datasources take writes (409 `datasource.error.notInternal`).';
const writerResponses = {
  401: sharedErrors[401],
  403: sharedErrors[403],
  404: sharedErrors[404],
  ...conflictError,
};

export const setDatasourceValueRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/api/display/datasource/{id}/set',
    operationId: 'setDatasourceValue',
    tags,
    summary: 'Set one key of an internal datasource’s document',
    description: `\`key\`: a dot path (\`rooms.2.name\`) or a JSONPath naming one place (\`$…\`); \`value\` is read as JSON when it is JSON, else as text. ${CALLERS}`,
    middleware: [identifyCaller],
    request: {
      params: IdParams,
      query: z.object({
        key: z.string().min(1).max(1_000).openapi({ example: 'rooms.2.name' }),
        value: z.string().max(65_536).openapi({ example: 'Board room' }),
      }),
    },
    responses: { 200: documentResponse('The document afterwards'), ...writerResponses },
  },
  { rateLimited: ANONYMOUS_WRITE_LIMIT },
);

export const mergeDatasourceDataRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/api/display/datasource/{id}/merge',
    operationId: 'mergeDatasourceData',
    tags,
    summary: 'Merge a JSON body into an internal datasource’s document (JSON Merge Patch, RFC 7396)',
    description: CALLERS,
    middleware: [identifyCaller],
    request: { params: IdParams, body: { required: true, ...json(DataDocumentSchema) } },
    responses: { 200: documentResponse('The document afterwards'), ...writerResponses },
  },
  { rateLimited: ANONYMOUS_WRITE_LIMIT },
);

export const readDeviceDatasourceRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'get',
    path: '/api/display/datasource/{id}',
    operationId: 'readDeviceDatasource',
    tags: ['Display'],
    summary: 'The data document of a datasource of the device’s customer',
    description: 'With `ETag`; `If-None-Match` with the current one answers 304. Devices read it after `datasourceChanged`.',
    request: { params: IdParams },
    responses: {
      200: {
        ...documentResponse('The document'),
        headers: { ETag: { description: 'The document’s version', schema: { type: 'string' } } },
      },
      304: { description: 'Not modified' },
    },
  },
  byId,
);

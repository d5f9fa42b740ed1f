import { z } from '@hono/zod-openapi';
import { customerIdParam, epochMsQuery, json } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { teamIdsParam, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';
import { ErrorSchema } from '@/server/http/errors';
import { tagCsvParam } from '@/server/modules/tags/tags.schemas';
import {
  booleanParam,
  InitBodySchema,
  InitResponseSchema,
  PartResponseSchema,
  pixelsParam,
  RecoverResponseSchema,
  UploadedFileSchema,
} from './uploads.schemas';
import { THUMBNAIL_TYPES } from './uploads.rules';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
const tooLarge = { 413: error('The body (or one file of it) is too large') } as const;
const unsupported = { 415: error('The body has the wrong media type') } as const;
const pathUuid = (name: string, description: string) => z.string().openapi({ param: { name, in: 'path' }, format: 'uuid', description });
const tokenParam = z
  .string()
  .optional()
  .openapi({ description: 'Signed token of an `uploadUrls` entry: replaces the bearer token for this one path' });

export const uploadFilesRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/file',
    operationId: 'uploadFiles',
    tags: ['Files'],
    summary: 'Upload files (multipart)',
    description:
      "Parts `files` (one or more) and `previews` (a thumbnail per file; its part file name must equal the file's name; a PNG, JPEG, GIF or WebP image by its first bytes, else the upload is a 415 and nothing is stored). Every file must be under 200 MB (413 otherwise; use the chunked upload) and have a supported extension (400 `file.error.unsupportedType`). The server computes `size`, `crcCheckSum`, `contentType` (the supported type the file's first bytes show, else its extension's; a part's declared type is ignored) and, unless given, `width`/`height`. The bytes count against the customer's `storageSize` beside its open upload sessions (400 `resourceLimit.error.limitReached`, `details.resource` = `STORAGE`). A NUL character in a part's file name or a field is a 400. Answers the created files.",
    request: {
      query: z.object({
        customerId: customerIdParam,
        teamIds: teamIdsParam,
        parentId: z.string().uuid().optional().openapi({ description: 'Target folder; absent = the root folder' }),
        inheritParentTeams: booleanParam("Copy the parent folder's team assignments", false),
        validFrom: epochMsQuery('Unix milliseconds'),
        validTo: epochMsQuery('Unix milliseconds'),
        tags: tagCsvParam.optional(),
        width: pixelsParam('Width hint in pixels (read from the file when absent)'),
        height: pixelsParam('Height hint in pixels (read from the file when absent)'),
        fileIdToReplace: z
          .string()
          .uuid()
          .optional()
          .openapi({ description: 'Point every reference of this file at the uploaded one (one file only)' }),
        removeOldFile: booleanParam('Delete the replaced file (only with fileIdToReplace)', false),
        muted: booleanParam('Audio muted (videos)', false),
      }),
      body: {
        required: true,
        content: {
          // A plain schema object (not zod): the body is parsed as a stream by the handler, never buffered by a validator.
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                files: { type: 'array', items: { type: 'string', format: 'binary' } },
                previews: { type: 'array', items: { type: 'string', format: 'binary' } },
              },
              required: ['files'],
            },
          },
        },
      },
    },
    responses: {
      200: { description: 'The created files', ...json(z.array(UploadedFileSchema)) },
      ...conflictError,
      ...tooLarge,
      ...unsupported,
    },
  },
  // The handler streams the body and enforces its own limits.
  { bodyLimit: 'stream', resourceIds: { 'query.parentId': 'fileFolder' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const initUploadRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/file/upload/init',
    operationId: 'initUpload',
    tags: ['Files'],
    summary: 'Start a chunked upload',
    description:
      "`maxChunkSize = ceil(size / totalChunks)`: every chunk but the last is exactly that size, the last holds the (non-empty) remainder. `uploadUrls` are signed URLs to PUT each chunk to without a bearer token (presigned object-store URLs on S3, where chunks other than the last must be at least 5 MiB). The session reserves `size` bytes of the customer's `storageSize` until it is completed (then they are the file's), cancelled or expired (400 `resourceLimit.error.limitReached` when they do not fit). `contentType` is accepted and ignored: complete reads the file's type from its bytes. The session expires after 24 hours.",
    request: { query: z.object({ customerId: customerIdParam, teamIds: teamIdsParam }), body: { required: true, ...json(InitBodySchema) } },
    responses: { 200: { description: 'The session', ...json(InitResponseSchema) } },
  },
  { resourceIds: { 'body.parentId': 'fileFolder' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const uploadPartRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/v2/file/upload/{sessionId}/part/{partNumber}',
    operationId: 'uploadPart',
    tags: ['Files'],
    summary: 'Upload one chunk',
    description:
      'Body: the chunk as `application/octet-stream` (another type is a 415; none is taken as octet-stream). Parts may arrive in any order and in parallel; a part sent again replaces the earlier one once it has arrived whole (of concurrent sends the last to complete wins; a failed one keeps the earlier copy). A wrong size is a 400 (`upload.error.wrongPartSize`), more than `maxChunkSize` a 413; a session cancelled or completed while the part arrives answers 409. With the `token` of an `uploadUrls` entry no bearer token is needed.',
    request: {
      params: z.object({
        sessionId: pathUuid('sessionId', 'The upload id'),
        // Parsed here; a number the session cannot have is the service's 400 (`upload.error.invalidPartNumber`), after the session's own checks.
        partNumber: z
          .string()
          .transform((value) => (/^\d{1,6}$/.test(value) ? Number(value) : -1))
          .openapi({ param: { name: 'partNumber', in: 'path' }, type: 'integer', minimum: 1 }),
      }),
      query: z.object({ customerId: customerIdParam, token: tokenParam }),
      body: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
    },
    responses: { 200: { description: 'The part was stored', ...json(PartResponseSchema) }, ...conflictError, ...tooLarge, ...unsupported },
  },
  // The handler streams the body and enforces its own limits.
  { bodyLimit: 'stream', resourceIds: { 'path.sessionId': 'uploadSession' } },
);

export const recoverUploadRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file/upload/{uploadId}/recover',
    operationId: 'recoverUpload',
    tags: ['Files'],
    summary: 'Uploaded and missing chunks of a session',
    request: { params: z.object({ uploadId: pathUuid('uploadId', 'The upload id') }), query: z.object({ customerId: customerIdParam }) },
    responses: {
      200: { description: 'The session state, with fresh URLs for the missing chunks', ...json(RecoverResponseSchema) },
      ...conflictError,
    },
  },
  { resourceIds: { 'path.uploadId': 'uploadSession' } },
);

export const completeUploadRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/file/upload/{uploadId}/complete',
    operationId: 'completeUpload',
    tags: ['Files'],
    summary: 'Assemble the chunks into the file',
    description:
      "All chunks must be present (409 `upload.error.partsMissing` with `missingChunks`). The file gets the session's create parameters; its id is the upload id. Calling complete again answers the same file. A `crcChecksum` given at init must match the received bytes (400). While a complete runs the session answers 409 `upload.error.completing`; a complete that died (its claim not renewed for 60 s) is taken over by the next call.",
    request: { params: z.object({ uploadId: pathUuid('uploadId', 'The upload id') }), query: z.object({ customerId: customerIdParam }) },
    responses: { 200: { description: 'The created file', ...json(UploadedFileSchema) }, ...conflictError },
  },
  { resourceIds: { 'path.uploadId': 'uploadSession' } },
);

export const cancelUploadRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/v2/file/upload/{uploadId}',
    operationId: 'cancelUpload',
    tags: ['Files'],
    summary: 'Cancel a chunked upload',
    description:
      "Removes the received chunks and anything assembled from them at once, and ends the session's reservation of the storage quota. A chunk still arriving is answered 409. Cancelling a cancelled session again is a no-op.",
    request: { params: z.object({ uploadId: pathUuid('uploadId', 'The upload id') }), query: z.object({ customerId: customerIdParam }) },
    responses: { 204: { description: 'Cancelled' }, ...conflictError },
  },
  { resourceIds: { 'path.uploadId': 'uploadSession' } },
);

export const uploadThumbnailRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/v2/file/upload/{fileId}/thumbnail',
    operationId: 'uploadFileThumbnail',
    tags: ['Files'],
    summary: 'Upload the thumbnail of a file',
    description:
      'Body: a picture made by the client (at most 10 MiB): PNG, JPEG, GIF or WebP, declared as its type, which its first bytes must show (415 otherwise; nothing is stored). Replaces an earlier thumbnail and sets `lastPreviewUploadTime`.',
    request: {
      params: z.object({ fileId: pathUuid('fileId', 'The file') }),
      query: z.object({ customerId: customerIdParam }),
      body: {
        required: true,
        content: Object.fromEntries(THUMBNAIL_TYPES.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
      },
    },
    responses: { 200: { description: 'The file', ...json(UploadedFileSchema) }, ...tooLarge, ...unsupported },
  },
  // The handler streams the body and enforces its own limits.
  { bodyLimit: 'stream', resourceIds: { 'path.fileId': 'file' } },
);

import { z } from '@hono/zod-openapi';
import { customerIdParam } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { ErrorSchema } from '@/server/http/errors';
import { intIdParam, integerParam } from '@/server/http/wire.schemas';
import { SIGNED_URL_MAX_SECONDS, SIGNED_URL_MIN_SECONDS, SignedUrlsSchema } from './uploads.schemas';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
const binary = (description: string) => ({ description, content: { '*/*': { schema: { type: 'string' as const, format: 'binary' } } } });
const customerPath = intIdParam.openapi({ param: { name: 'customerId', in: 'path' }, description: "The file's customer" });

export const downloadFileRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/storage/customer/{customerId}/files/{fileId}',
    operationId: 'downloadFile',
    tags: ['Files'],
    summary: 'Download a file or its thumbnail',
    description:
      '`{fileId}` is the file id, or the file id followed by `.tmb` for its thumbnail. Honours `Range` (206, 416), `ETag`/`If-None-Match` (304) and answers `Cache-Control: private, max-age=31536000, immutable`. Instead of a bearer token, the signed `token` of a URL from GET /api/v2/file/{id}/signedUrl is accepted (for `<img>`/`<video>` tags and devices).',
    request: {
      params: z.object({
        customerId: customerPath,
        fileId: z.string().openapi({ param: { name: 'fileId', in: 'path' }, example: '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11.tmb' }),
      }),
      query: z.object({ token: z.string().optional().openapi({ description: 'Signed token (replaces the bearer token for this path)' }) }),
      headers: z.object({ range: z.string().optional().openapi({ example: 'bytes=0-1023' }), 'if-none-match': z.string().optional() }),
    },
    responses: {
      200: binary('The bytes'),
      206: binary('The requested range'),
      304: { description: 'Not modified' },
      416: error('The range lies outside the file'),
    },
  },
  { resourceIds: { 'path.customerId': 'customer', 'path.fileId': 'file' } },
);

export const devicePreviewRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/storage/customer/{customerId}/devices/{deviceId}/preview.jpg',
    operationId: 'downloadDevicePreview',
    tags: ['Devices'],
    summary: "A device's newest screenshot (its previewPath), or one of its previewStore",
    description:
      'The image as the device sent it (JPEG, PNG or WebP, named by `Content-Type`). `previewId` names a screenshot of GET ' +
      "/api/v2/device/{id}/previewStore; without it the newest. `v` (previewPath's cache-busting) is ignored. Honours `Range` (206, 416) and " +
      "`ETag`/`If-None-Match` (304). Another tenant's device, a device the caller's teams do not show, or no screenshot: 404.",
    request: {
      params: z.object({
        customerId: customerPath,
        deviceId: z.string().openapi({ param: { name: 'deviceId', in: 'path' }, format: 'uuid' }),
      }),
      query: z.object({
        previewId: z.string().optional().openapi({ format: 'uuid', description: 'One screenshot of the history (default: the newest)' }),
        v: z.string().optional().openapi({ description: 'Cache-busting; ignored' }),
      }),
      headers: z.object({ range: z.string().optional().openapi({ example: 'bytes=0-1023' }), 'if-none-match': z.string().optional() }),
    },
    responses: {
      200: {
        description: 'The image',
        content: Object.fromEntries(
          ['image/jpeg', 'image/png', 'image/webp'].map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }]),
        ),
      },
      206: binary('The requested range'),
      304: { description: 'Not modified' },
      416: error('The range lies outside the image'),
    },
  },
  { resourceIds: { 'path.customerId': 'customer', 'path.deviceId': 'device', 'query.previewId': 'devicePreview' } },
);

export const fileSignedUrlRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file/{id}/signedUrl',
    operationId: 'getFileSignedUrl',
    tags: ['Files'],
    summary: 'Short-lived download URLs of a file',
    description:
      'URLs of the file and its thumbnail carrying a signed `token`, valid for `expiresIn` seconds (default 3600, 60..604800), usable without credentials.',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: z.object({
        customerId: customerIdParam,
        expiresIn: integerParam(SIGNED_URL_MIN_SECONDS, SIGNED_URL_MAX_SECONDS)
          .optional()
          .openapi({ description: 'Seconds', default: 3600 }),
      }),
    },
    responses: { 200: { description: 'The signed URLs', content: { 'application/json': { schema: SignedUrlsSchema } } } },
  },
  { resourceIds: { 'path.id': 'file' } },
);

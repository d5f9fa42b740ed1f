import { z } from '@hono/zod-openapi';
import { customerIdParam } from '@/server/http/list-query';
import { notFoundError, securedErrors } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { ErrorSchema } from '@/server/http/errors';
import { SignedUrlsSchema } from './uploads.schemas';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
const binary = (description: string) => ({ description, content: { '*/*': { schema: { type: 'string' as const, format: 'binary' } } } });
const customerPath = z.string().openapi({ param: { name: 'customerId', in: 'path' }, type: 'integer', description: 'The file\'s customer' });

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
      params: z.object({ customerId: customerPath, fileId: z.string().openapi({ param: { name: 'fileId', in: 'path' }, example: '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11.tmb' }) }),
      query: z.object({ token: z.string().optional().openapi({ description: 'Signed token (replaces the bearer token for this path)' }) }),
      headers: z.object({ range: z.string().optional().openapi({ example: 'bytes=0-1023' }), 'if-none-match': z.string().optional() }),
    },
    responses: {
      200: binary('The bytes'),
      206: binary('The requested range'),
      304: { description: 'Not modified' },
      416: error('The range lies outside the file'),
      ...securedErrors,
      ...notFoundError,
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
    tags: ['Files'],
    summary: 'A device\'s screenshot (reserved)',
    description: 'Reserved for device previews; answers 404 until devices exist.',
    request: { params: z.object({ customerId: customerPath, deviceId: z.string().openapi({ param: { name: 'deviceId', in: 'path' }, format: 'uuid' }) }) },
    responses: { 200: { description: 'The JPEG', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } }, ...securedErrors, ...notFoundError },
  },
  { resourceIds: { 'path.customerId': 'customer' } },
);

export const fileSignedUrlRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file/{id}/signedUrl',
    operationId: 'getFileSignedUrl',
    tags: ['Files'],
    summary: 'Short-lived download URLs of a file',
    description: 'URLs of the file and its thumbnail carrying a signed `token`, valid for `expiresIn` seconds (default 3600, 60..604800), usable without credentials.',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: z.object({ customerId: customerIdParam, expiresIn: z.string().regex(/^\d{1,7}$/).optional().openapi({ type: 'integer', description: 'Seconds' }) }),
    },
    responses: { 200: { description: 'The signed URLs', content: { 'application/json': { schema: SignedUrlsSchema } } }, ...securedErrors, ...notFoundError },
  },
  { resourceIds: { 'path.id': 'file' } },
);

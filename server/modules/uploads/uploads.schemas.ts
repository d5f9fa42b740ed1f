import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';

/** Query parameters arrive as strings; these keep them typed in the OpenAPI document. */
export const booleanParam = booleanQuery;
export const integerParam = (description: string) => z.string().regex(/^-?\d{1,15}$/, 'must be an integer').optional().openapi({ type: 'integer', description });

export const toInteger = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** The file object (spec 2 "File"), as the file list answers it. */
export const UploadedFileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string().openapi({ description: 'The supported type the first bytes show, else the extension\'s; never a declared type' }),
    size: z.number().int(),
    crcCheckSum: z.string(),
    customerId: z.number().int(),
    fileFolderId: z.string(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    location: z.string(),
    thumbnail: z.string().optional(),
  })
  .catchall(z.unknown())
  .openapi('UploadedFile', { description: 'A file object, in the same shape as GET /api/v2/file answers it' });

export const InitBodySchema = z
  .object({
    name: z.string().min(1).max(255),
    size: z.number().int().openapi({ minimum: 1, maximum: 10737418240 }),
    totalChunks: z.number().int().openapi({ minimum: 1, maximum: 10000 }),
    contentType: z.string().max(255).optional().openapi({ description: 'Accepted and ignored: the file\'s `contentType` is read from its bytes at complete' }),
    metaData: z.record(z.string(), z.unknown()).optional(),
    parentId: z.string().uuid().optional().openapi({ description: 'Target folder; absent = the root folder' }),
    tags: z.array(z.string()).optional(),
    validFrom: z.number().int().optional().openapi({ description: 'Unix milliseconds' }),
    validTo: z.number().int().optional().openapi({ description: 'Unix milliseconds' }),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    muted: z.boolean().optional(),
    crcChecksum: z.string().optional().openapi({ description: 'CRC32 of the whole file (8 hex digits); complete refuses other bytes' }),
  })
  .openapi('UploadInit');

export const InitResponseSchema = z
  .object({
    uploadId: z.string(),
    uploadUrls: z.record(z.string(), z.string()).openapi({ description: 'Part number → URL to PUT the part to (signed; no bearer token needed)' }),
    maxChunkSize: z.number().int(),
    name: z.string(),
    size: z.number().int(),
    totalChunks: z.number().int(),
  })
  .openapi('UploadInitResponse');

export const RecoverResponseSchema = InitResponseSchema.extend({
  uploadedChunks: z.array(z.number().int()),
  missingChunks: z.array(z.number().int()),
}).openapi('UploadRecoverResponse', { description: '`uploadUrls` holds fresh URLs for the missing chunks' });

export const PartResponseSchema = z
  .object({
    partNumber: z.number().int(),
    etag: z.string(),
    uploadedSize: z.number().int(),
    sessionId: z.string(),
    success: z.boolean(),
    message: z.string(),
  })
  .openapi('UploadPartResponse');

export const SignedUrlsSchema = z
  .object({
    url: z.string().openapi({ description: 'The download URL with a signed `token`' }),
    thumbnailUrl: z.string().openapi({ description: 'The `.tmb` URL with its own signed `token`' }),
    expiresAt: z.number().int().openapi({ description: 'Unix milliseconds when both stop working' }),
  })
  .openapi('FileSignedUrls');
export type UploadedFile = z.infer<typeof UploadedFileSchema>;

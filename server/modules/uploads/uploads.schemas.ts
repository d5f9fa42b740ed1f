import { z } from '@hono/zod-openapi';
import { anyCase, epochMs, intId, integerParam } from '@/server/http/wire.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';

/** Query parameters arrive as strings; these keep them typed in the OpenAPI document. */
export const booleanParam = booleanQuery;

/** Chunked sessions (spec 1 "Limits"): 1 byte to 10 GB, 1 to 10 000 chunks. */
export const MAX_SESSION_SIZE = 10_737_418_240;
const MAX_TOTAL_CHUNKS = 10_000;
/** A width or height hint, in pixels. */
const MAX_PIXELS = 1_000_000;
/** Signed download URLs live `expiresIn` seconds: a minute to a week (default an hour). */
export const SIGNED_URL_MIN_SECONDS = 60;
export const SIGNED_URL_MAX_SECONDS = 7 * 24 * 3600;

/** Spec 2 "File": the supported extensions and their MIME types (content-types.ts decides a file's type). */
export const supportedExtensions: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  pdf: 'application/pdf',
  json: 'application/json',
};

/** A name the upload of a file takes: no `/` or `\`, ending in `.` and a supported extension (any case). */
export const SUPPORTED_FILE_NAME_PATTERN = `^[^/\\\\]*\\.(?:${Object.keys(supportedExtensions).map(anyCase).join('|')})$`;

const pixels = z.number().int().min(1).max(MAX_PIXELS);
/**
 * A file name as uploads take it: 1 to 255 characters without `/` or `\`. Its extension is checked by the upload
 * (400 `file.error.unsupportedType`, with the supported list); the document states both as one pattern.
 */
export const uploadFileName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^/\\]*$/, 'A file name has no slashes');
const supportedFileName = uploadFileName.openapi({ pattern: SUPPORTED_FILE_NAME_PATTERN, example: 'poster.png' });

export const pixelsParam = (description: string) => integerParam(1, MAX_PIXELS).optional().openapi({ description });

/** The file object (spec 2 "File"), as the file list answers it. */
export const UploadedFileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z
      .string()
      .openapi({ description: "The supported type the first bytes show, else the extension's; never a declared type" }),
    size: z.number().int(),
    crcCheckSum: z.string(),
    customerId: intId,
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
    name: supportedFileName,
    size: z.number().int().min(1).max(MAX_SESSION_SIZE),
    totalChunks: z.number().int().min(1).max(MAX_TOTAL_CHUNKS),
    contentType: z
      .string()
      .max(255)
      .optional()
      .openapi({ description: "Accepted and ignored: the file's `contentType` is read from its bytes at complete" }),
    metaData: z.record(z.string(), z.unknown()).optional(),
    parentId: z.string().uuid().optional().openapi({ description: 'Target folder; absent = the root folder' }),
    tags: tagListOf(500).optional(),
    validFrom: epochMs.optional().openapi({ description: 'Unix milliseconds' }),
    validTo: epochMs.optional().openapi({ description: 'Unix milliseconds' }),
    width: pixels.optional(),
    height: pixels.optional(),
    muted: z.boolean().optional(),
    crcChecksum: z
      .string()
      .regex(/^[0-9a-fA-F]{8}$/, 'A CRC32 of 8 hex digits')
      .optional()
      .openapi({ description: 'CRC32 of the whole file (8 hex digits); complete refuses other bytes' }),
  })
  .openapi('UploadInit');

export const InitResponseSchema = z
  .object({
    uploadId: z.string(),
    uploadUrls: z
      .record(z.string(), z.string())
      .openapi({ description: 'Part number → URL to PUT the part to (signed; no bearer token needed)' }),
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
    expiresAt: epochMs.openapi({ description: 'Unix milliseconds when both stop working' }),
  })
  .openapi('FileSignedUrls');
export type UploadedFile = z.infer<typeof UploadedFileSchema>;

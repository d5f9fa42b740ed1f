import type { Context, MiddlewareHandler } from 'hono';
import { UnauthorizedError } from '@/server/errors';
import type { RouteRegistrar } from '@/server/http/route';
import type { AppEnv } from '@/server/http/context';
import { requestBodyStream, streamResponse } from '@/server/http/node-streams';
import { requestOrigin } from '@/server/http/request-origin';
import { serviceContext } from '@/server/http/service-context';
import { downloadSafetyHeaders } from './content-types';
import { previewForCaller } from '@/server/modules/devices';
import {
  download,
  downloadDevicePreview,
  findTargetForCaller,
  findTargetForToken,
  fileSignedUrls,
  type Download,
} from './downloads.service';
import { devicePreviewRoute, downloadFileRoute, fileSignedUrlRoute } from './downloads.routes';
import { verifyPathToken } from './signed-urls';
import { uploadFiles } from './simple-upload';
import { uploadThumbnail } from './thumbnail.service';
import { completeUpload } from './upload-complete';
import { sessionById, uploadPart, uploadPartAsCaller } from './upload-parts.service';
import { cancelUpload, initUpload, recoverUpload } from './upload-sessions.service';
import {
  cancelUploadRoute,
  completeUploadRoute,
  initUploadRoute,
  recoverUploadRoute,
  uploadFilesRoute,
  uploadPartRoute,
  uploadThumbnailRoute,
} from './uploads.routes';

function contentLength(c: Context<AppEnv>): number | undefined {
  const raw = c.req.header('content-length');

  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

const CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** Writes a download as HTTP: 304, 416, 206 with its range, or 200; every body with the safety headers. */
function sendDownload(c: Context<AppEnv>, download: Download, cacheControl = CACHE_CONTROL): Response {
  switch (download.kind) {
    case 'notModified':
      return c.body(null, 304, { ETag: download.etag, 'Cache-Control': cacheControl });
    case 'rangeNotSatisfiable':
      return c.json({ status: 416, key: 'file.error.rangeNotSatisfiable', message: 'The requested range lies outside the file' }, 416, {
        'Content-Range': `bytes */${download.size}`,
        'Accept-Ranges': 'bytes',
        ETag: download.etag,
      });
    case 'content': {
      const { range } = download;
      const headers: Record<string, string> = {
        ETag: download.etag,
        'Cache-Control': cacheControl,
        'Accept-Ranges': 'bytes',
        ...downloadSafetyHeaders(download.contentType, download.fileName),
        'Content-Length': String(range ? range.end - range.start + 1 : download.size),
        ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${download.size}` } : {}),
      };
      const status = range ? 206 : 200;
      if (!download.body) return c.body(null, status, headers);

      return streamResponse(c, { status, headers, body: download.body });
    }
  }
}

const normalisedPath = (c: Context<AppEnv>) => c.req.path.replace(/\/+$/, '');

/**
 * Signed URLs (`?token=`) stand in for the bearer token on exactly two paths: a chunk PUT from
 * `uploadUrls` and a download. The middleware answers such requests itself; without a token the
 * request continues to the declared route and its normal authentication.
 */
function signed(
  method: 'PUT' | 'GET',
  handle: (c: Context<AppEnv>, deviceId: string | undefined) => Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = c.req.query('token');
    const requestMethod = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (token === undefined || requestMethod !== method) return next();
    const check = verifyPathToken(c.var.deps.config, { method, path: normalisedPath(c), token });
    if (check.status !== 'valid') {
      const expired = check.status === 'expired';
      throw new UnauthorizedError(
        expired ? 'The signed URL has expired' : 'The signed URL is invalid',
        expired ? 'auth.error.tokenExpired' : 'auth.error.invalidToken',
      );
    }

    return handle(c, check.deviceId);
  };
}

export function registerUploadRoutes(app: RouteRegistrar): void {
  app.use(
    '/api/v2/file/upload/:sessionId/part/:partNumber',
    signed('PUT', async (c, deviceId) => {
      // Part URLs are never signed for a device.
      if (deviceId !== undefined) throw new UnauthorizedError('The signed URL is invalid', 'auth.error.invalidToken');
      const session = await sessionById(c.var.deps.db, c.req.param('sessionId') ?? '');
      const result = await uploadPart(c.var.deps, {
        session,
        partNumber: Number(c.req.param('partNumber')),
        contentType: c.req.header('content-type'),
        contentLength: contentLength(c),
        body: requestBodyStream(c),
      });

      return c.json(result, 200);
    }),
  );
  app.use(
    '/api/storage/customer/:customerId/files/:fileId',
    signed('GET', async (c, deviceId) => {
      const target = await findTargetForToken(c.var.deps.db, {
        customerIdRaw: c.req.param('customerId') ?? '',
        fileName: c.req.param('fileId') ?? '',
        deviceId,
      });

      return sendDownload(
        c,
        await download(c.var.deps.storage, target, {
          method: c.req.method,
          range: c.req.header('range'),
          ifNoneMatch: c.req.header('if-none-match'),
        }),
      );
    }),
  );

  app.openapi(uploadFilesRoute, async (c) => {
    const q = c.req.valid('query');
    try {
      const created = await uploadFiles(serviceContext(c), {
        query: {
          teamIds: q.teamIds,
          parentId: q.parentId,
          inheritParentTeams: q.inheritParentTeams,
          validFrom: q.validFrom,
          validTo: q.validTo,
          tags: q.tags,
          width: q.width,
          height: q.height,
          fileIdToReplace: q.fileIdToReplace,
          removeOldFile: q.removeOldFile,
          muted: q.muted,
        },
        contentType: c.req.header('content-type'),
        body: requestBodyStream(c),
      });

      return c.json(created, 200);
    } catch (error) {
      // The rest of the body may be unread: close the connection instead of reading it to its end.
      c.header('Connection', 'close');
      throw error;
    }
  });

  app.openapi(initUploadRoute, async (c) =>
    c.json(
      await initUpload(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds, baseUrl: requestOrigin(c) }),
      200,
    ),
  );

  app.openapi(recoverUploadRoute, async (c) =>
    c.json(await recoverUpload(serviceContext(c), { uploadId: c.req.valid('param').uploadId, baseUrl: requestOrigin(c) }), 200),
  );

  app.openapi(completeUploadRoute, async (c) => c.json(await completeUpload(serviceContext(c), c.req.valid('param').uploadId), 200));

  app.openapi(uploadThumbnailRoute, async (c) =>
    c.json(
      await uploadThumbnail(serviceContext(c), {
        fileId: c.req.valid('param').fileId,
        contentType: c.req.header('content-type'),
        contentLength: contentLength(c),
        body: requestBodyStream(c),
      }),
      200,
    ),
  );

  app.openapi(uploadPartRoute, async (c) => {
    const { sessionId, partNumber } = c.req.valid('param');
    const result = await uploadPartAsCaller(serviceContext(c), {
      sessionId,
      partNumber,
      contentType: c.req.header('content-type'),
      contentLength: contentLength(c),
      body: requestBodyStream(c),
    });

    return c.json(result, 200);
  });

  app.openapi(cancelUploadRoute, async (c) => {
    await cancelUpload(serviceContext(c), c.req.valid('param').uploadId);

    return c.body(null, 204);
  });

  app.openapi(fileSignedUrlRoute, async (c) => {
    const expiresIn = c.req.valid('query').expiresIn;

    return c.json(
      await fileSignedUrls({ ...serviceContext(c), baseUrl: requestOrigin(c) }, { id: c.req.valid('param').id, expiresIn }),
      200,
    );
  });

  app.openapi(devicePreviewRoute, async (c) => {
    const ctx = serviceContext(c);
    const preview = await previewForCaller(ctx, { ...c.req.valid('param'), previewId: c.req.valid('query').previewId });
    const request = { method: c.req.method, range: c.req.header('range'), ifNoneMatch: c.req.header('if-none-match') };

    // The newest screenshot changes under the same path: revalidated (ETag) rather than kept.
    return sendDownload(c, await downloadDevicePreview(ctx.storage, preview, request), 'private, no-cache');
  });

  app.openapi(downloadFileRoute, async (c) => {
    const { customerId, fileId } = c.req.valid('param');
    const ctx = serviceContext(c);
    const target = await findTargetForCaller(ctx, String(customerId), fileId);

    return sendDownload(
      c,
      await download(ctx.storage, target, {
        method: c.req.method,
        range: c.req.header('range'),
        ifNoneMatch: c.req.header('if-none-match'),
      }),
    );
  });
}

import { api, ok, tenantQuery } from '@/lib/api/client';
import type { Schemas } from '@/lib/api/types';

/*
 * The operations of an upload session (spec 2 "Upload session") the uploader calls through the API client:
 * init, recover, complete, cancel and the thumbnail. The parts go by XMLHttpRequest (lib/upload/session-uploader.ts):
 * fetch reports no upload progress, and a part's URL may be a signed one of another origin.
 */

export type UploadInit = Schemas['UploadInit'];
export type UploadedFile = Schemas['UploadedFile'];

/** Opens a session for one file; answers its id, its part size and the part URLs. */
export function initUpload(body: UploadInit, customerId: number | undefined) {
  return ok(api.POST('/api/v2/file/upload/init', { params: { query: tenantQuery(customerId) }, body }));
}

/** A session's state, with fresh URLs for its missing parts. */
export function recoverUpload(uploadId: string, customerId: number | undefined) {
  return ok(api.GET('/api/v2/file/upload/{uploadId}/recover', { params: { path: { uploadId }, query: tenantQuery(customerId) } }));
}

/** Ends a session whose parts are all sent: answers the file it created. */
export function completeUpload(uploadId: string, customerId: number | undefined) {
  return ok(api.POST('/api/v2/file/upload/{uploadId}/complete', { params: { path: { uploadId }, query: tenantQuery(customerId) } }));
}

/** Cancels a session on the server (its parts are dropped). */
export function cancelUpload(uploadId: string, customerId: number | undefined) {
  return ok(api.DELETE('/api/v2/file/upload/{uploadId}', { params: { path: { uploadId }, query: tenantQuery(customerId) } }));
}

/** Stores the console's thumbnail (a JPEG the browser drew) of an uploaded file. */
export function uploadThumbnail(fileId: string, thumbnail: Blob, customerId: number | undefined) {
  return ok(
    api.PUT('/api/v2/file/upload/{fileId}/thumbnail', {
      params: { path: { fileId }, query: tenantQuery(customerId) },
      // The document declares the image bytes as a (binary) string; the browser sends the Blob as it is.
      body: thumbnail as unknown as string,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': thumbnail.type || 'image/jpeg' },
    }),
  );
}

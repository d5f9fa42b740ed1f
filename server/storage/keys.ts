/**
 * Blob keys. The file delete trigger (server/db/custom-sql/file_delete_trigger.sql) builds the same
 * two keys in SQL; change both together.
 */
export function fileBlobKey(customerId: number, fileId: string): string {
  return `customer/${customerId}/files/${fileId}`;
}

export function thumbnailBlobKey(customerId: number, fileId: string): string {
  return `${fileBlobKey(customerId, fileId)}.tmb`;
}

/** Keys are built by the service only; this guards the local store against path tricks anyway. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) && !key.split('/').some((part) => part === '' || part === '.' || part === '..');
}

/** One screenshot of a device (spec 4 §3 PUT /api/display/screenshot); its `device_preview` row holds this key. */
export function devicePreviewBlobKey(customerId: number, deviceId: string, previewId: string): string {
  return `customer/${customerId}/devices/${deviceId}/previews/${previewId}`;
}

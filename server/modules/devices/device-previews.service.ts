import type { Logger } from 'pino';
import { resolveTenantScope } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError } from '@/server/errors';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { deleteCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import type { BlobStore } from '@/server/storage/blob-store';
import { findDevicePreview, findDevicePreviews, insertDevicePreview, pruneDevicePreviews, type DevicePreviewRow } from './devices.queries';
import type { DevicePreview } from './devices.schemas';
import { readDevice } from './devices.service';

/*
 * A device's screenshots (spec 3 `previewStore`, spec 2's device preview URL). The player uploads them
 * (display module, PUT /api/display/screenshot); the newest is the device's previewPath.
 */

/** Screenshots kept per device: the upload removes older ones (and their blobs). */
export const PREVIEW_HISTORY = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The storage URL of spec 2; `previewId` names one screenshot of the history (else the newest). */
function devicePreviewPath(customerId: number, deviceId: string, previewId?: string): string {
  return `/api/storage/customer/${customerId}/devices/${deviceId}/preview.jpg${previewId ? `?previewId=${previewId}` : ''}`;
}

export type NewDevicePreview = {
  id: string;
  deviceId: string;
  customerId: number;
  storageKey: string;
  contentType: string;
  size: number;
  highRes: boolean;
  takenAt: Date;
};

/**
 * A screenshot stored under `storageKey` becomes the device's newest: in one transaction its row, the
 * device's preview time (previewPath), the end of the blob's crash-safety entry, and the history bound
 * (older rows deleted, their blobs queued for the cleanup job). After the commit the pruned blobs are
 * removed at once (the job retries what fails). The console's screen detail reads the new previewPath on its next poll. False when the device
 * is gone (or no longer the customer's): the caller discards the blob.
 */
export async function recordDevicePreview(
  deps: { db: Database; storage: BlobStore; log: Logger },
  preview: NewDevicePreview,
): Promise<boolean> {
  const pruned = await withTransaction(deps.db, async (tx) => {
    if (!(await insertDevicePreview(tx, preview))) return undefined;
    await deleteCleanupEntries(tx, [preview.storageKey]);

    return pruneDevicePreviews(tx, preview.deviceId, PREVIEW_HISTORY);
  });
  if (!pruned) return false;
  if (pruned.length > 0) await discardBlobs(deps, pruned);

  return true;
}

/** GET /api/v2/device/{id}/previewStore: the device's screenshots, newest first (at most PREVIEW_HISTORY). */
export async function previewStore(ctx: ServiceContext, deviceId: string): Promise<DevicePreview[]> {
  const device = await readDevice(ctx.db, ctx, deviceId, 'id,customerId');
  const rows = await findDevicePreviews(ctx.db, device.customerId!, device.id, PREVIEW_HISTORY);

  return rows.map((row) => ({
    id: row.id,
    takenAt: row.takenAt.toISOString(),
    contentType: row.contentType,
    size: row.size,
    highRes: row.highRes,
    path: devicePreviewPath(row.customerId!, row.deviceId, row.id),
  }));
}

/**
 * The screenshot a signed-in caller downloads: a device of `customerIdRaw` the caller sees (tenant scope
 * and teams), its newest screenshot or the one named. Anything else (another tenant, an unknown or
 * invisible device, no screenshot) is a 404.
 */
export async function previewForCaller(
  ctx: Pick<ServiceContext, 'db' | 'actor'>,
  input: { customerId: string | number; deviceId: string; previewId?: string },
): Promise<DevicePreviewRow> {
  const customerId = /^\d{1,18}$/.test(String(input.customerId)) ? Number(input.customerId) : undefined;
  const wellFormed = customerId !== undefined && UUID.test(input.deviceId) && (input.previewId === undefined || UUID.test(input.previewId));
  const notFound = new NotFoundError('devicePreview', input.deviceId);
  if (!wellFormed) throw notFound;
  try {
    await resolveTenantScope(ctx.db, ctx.actor, customerId);
  } catch {
    throw notFound;
  }
  await readDevice(ctx.db, { actor: ctx.actor, scope: customerScope(customerId) }, input.deviceId, 'id');
  const row = await findDevicePreview(ctx.db, customerId, input.deviceId, input.previewId);
  if (!row) throw notFound;

  return row;
}

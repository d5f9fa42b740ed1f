import type { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type { DeviceContext } from '@/server/context/service-context';
import { AppError, ForbiddenError, UnauthorizedError, ValidationError } from '@/server/errors';
import { BodyTooLargeError } from '@/server/http/request-input';
import { recordDevicePreview, insertMetricSamples } from '@/server/modules/devices';
import { deviceMetricTypes } from '@/server/modules/devices/devices.schemas';
import { discardBlobs } from '@/server/storage/blob-cleanup';
import { deleteCleanupEntries, insertCleanupEntries } from '@/server/storage/blob-cleanup.queries';
import { checkedImageStream, isAcceptedImageType, type ImageType } from '@/server/storage/image-types';
import { devicePreviewBlobKey } from '@/server/storage/keys';
import type { MetricSample, MetricsResult } from './display.schemas';

/*
 * What a player reports besides its heartbeat (spec 4 §3): screenshots (PUT /api/display/screenshot),
 * which become the device's previewPath and the newest previewStore entry, and metric samples
 * (POST /api/display/metrics), which the devices module's graphs read. Telemetry, like the heartbeat,
 * writes no audit-log entry (docs/decisions.md "Screenshots and metrics from devices").
 */

/** Spec 4 §3: at most 5 MB. */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const satisfies readonly ImageType[];
/** Samples stamped further ahead of the server's clock, or further back, are rejected (as proof of play, spec 4 §5). */
const METRIC_MAX_FUTURE_MS = 5 * 60_000;
const METRIC_MAX_AGE_MS = 365 * 24 * 3_600_000;
/** A screenshot's reported time (`takenAt`) more than an hour old is refused: a player uploads what it just drew. */
const SCREENSHOT_MAX_AGE_MS = 3_600_000;
/** How long a stored screenshot without its row may stay before the cleanup job removes it (a crash in between). */
const SCREENSHOT_GRACE_MS = 15 * 60_000;

type AssignedDevice = { deviceId: string; customerId: number };

function assigned(ctx: DeviceContext): AssignedDevice {
  // The route admits assigned devices only; a device unclaimed meanwhile is refused the same way.
  if (ctx.device.customerId === null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');

  return { deviceId: ctx.device.deviceId, customerId: ctx.device.customerId };
}

const emptyScreenshot = () => new ValidationError('display.error.emptyScreenshot', 'The screenshot body is empty');
const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * PUT /api/display/screenshot: the image, of a declared type its first bytes confirm, streamed to storage
 * within 5 MB, then recorded as the device's newest screenshot (devices module: row, previewPath, history
 * bound, change listeners).
 */
export async function storeScreenshot(
  ctx: DeviceContext,
  input: { contentType: string | undefined; body: Readable | undefined; highRes?: boolean; takenAt?: number },
): Promise<void> {
  const device = assigned(ctx);
  const takenAt = screenshotTime(input.takenAt, Date.now());
  const declared = mediaTypeOf(input.contentType);
  if (!isAcceptedImageType(declared, SCREENSHOT_TYPES)) {
    throw new AppError(415, 'display.error.unsupportedImageType', `A screenshot is ${SCREENSHOT_TYPES.join(', ')}`, {
      contentType: declared || null,
    });
  }
  if (!input.body) throw emptyScreenshot();
  const id = uuidv7();
  const key = devicePreviewBlobKey(device.customerId, device.deviceId, id);
  // A crash between the blob and its row leaves this entry: the cleanup job removes the orphan later.
  await insertCleanupEntries(ctx.db, [key], new Date(Date.now() + SCREENSHOT_GRACE_MS), 'device screenshot upload');
  let size: number;
  try {
    const image = checkedImageStream(input.body, {
      accepted: SCREENSHOT_TYPES,
      declared,
      refused: () => new AppError(415, 'display.error.imageMismatch', `The body is not a ${declared} image`, { contentType: declared }),
      empty: emptyScreenshot,
    });
    size = (await ctx.storage.put(key, image, { contentType: declared, maxBytes: SCREENSHOT_MAX_BYTES })).size;
  } catch (error) {
    await deleteCleanupEntries(ctx.db, [key]).catch(() => undefined);
    if (error instanceof AppError && error.status === 413) throw new BodyTooLargeError(SCREENSHOT_MAX_BYTES);
    throw error;
  }
  const preview = {
    id,
    deviceId: device.deviceId,
    customerId: device.customerId,
    storageKey: key,
    contentType: declared,
    size,
    highRes: input.highRes ?? false,
    takenAt,
  };
  if (!(await recordDevicePreview(ctx, preview))) {
    // Deleted meanwhile: as if its token had gone with it.
    await discardBlobs(ctx, [key]);
    throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  }
}

/**
 * When a screenshot was taken: the player's report (its server-corrected clock) within [now − 1 hour, now + 5 min],
 * never later than its arrival (a clock a little ahead is not a capture from the future); the upload's time without one.
 */
function screenshotTime(reported: number | undefined, now: number): Date {
  if (reported === undefined) return new Date(now);
  if (reported > now + METRIC_MAX_FUTURE_MS)
    throw new ValidationError('display.error.screenshotInFuture', 'takenAt is more than 5 minutes in the future', { parameter: 'takenAt' });
  if (reported < now - SCREENSHOT_MAX_AGE_MS)
    throw new ValidationError('display.error.screenshotTooOld', 'takenAt is more than an hour in the past', { parameter: 'takenAt' });

  return new Date(Math.min(reported, now));
}

const KNOWN_TYPES = new Set<string>(deviceMetricTypes);

/**
 * POST /api/display/metrics: each sample checked on its own (a known type, a timestamp within [now − 1 year,
 * now + 5 min]; the schema already refused values that are not finite numbers and timestamps that are not
 * epoch milliseconds from 0 to year 9999); the accepted ones stored in one INSERT, the rest answered with
 * their index and reason.
 */
export async function storeMetrics(ctx: DeviceContext, samples: readonly MetricSample[]): Promise<MetricsResult> {
  const device = assigned(ctx);
  const now = Date.now();
  const accepted: Array<{ type: string; sampledAt: Date; value: number }> = [];
  const rejected: MetricsResult['rejected'] = [];
  samples.forEach((sample, index) => {
    const reject = (key: string, message: string) => rejected.push({ index, key, message });
    if (!KNOWN_TYPES.has(sample.type))
      return reject('display.error.unknownMetricType', `Unknown metric type '${sample.type.slice(0, 64)}'`);
    if (sample.timestamp > now + METRIC_MAX_FUTURE_MS)
      return reject('display.error.metricInFuture', 'The timestamp is more than 5 minutes in the future');
    if (sample.timestamp < now - METRIC_MAX_AGE_MS)
      return reject('display.error.metricTooOld', 'The timestamp is more than a year in the past');
    accepted.push({ type: sample.type, sampledAt: new Date(sample.timestamp), value: sample.value });
  });
  await insertMetricSamples(ctx.db, device.deviceId, accepted);

  return { accepted: accepted.length, rejected };
}

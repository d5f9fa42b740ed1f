import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type { DeviceContext } from '@/server/context/service-context';
import { AppError, ForbiddenError, UnauthorizedError, ValidationError } from '@/server/errors';
import { BodyTooLargeError } from '@/server/http/request-input';
import { recordDevicePreview } from '@/server/modules/devices/device-previews.service';
import { insertMetricSamples } from '@/server/modules/devices/devices.queries';
import { deviceMetricTypes } from '@/server/modules/devices/devices.schemas';
import { discardBlobs } from '@/server/modules/uploads/upload-common';
import { deleteCleanupEntries, insertCleanupEntries } from '@/server/modules/uploads/uploads.queries';
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
export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Samples stamped further ahead of the server's clock, or further back, are rejected (as proof of play, spec 4 §5). */
export const METRIC_MAX_FUTURE_MS = 5 * 60_000;
export const METRIC_MAX_AGE_MS = 365 * 24 * 3_600_000;
/** How long a stored screenshot without its row may stay before the cleanup job removes it (a crash in between). */
const SCREENSHOT_GRACE_MS = 15 * 60_000;
/** The leading bytes that tell the three types apart (WebP: `RIFF` size `WEBP`). */
const SIGNATURE_BYTES = 12;
const SIGNATURES: Record<(typeof SCREENSHOT_TYPES)[number], (h: Buffer) => boolean> = {
  'image/jpeg': (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/png': (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/webp': (h) => h.toString('latin1', 0, 4) === 'RIFF' && h.toString('latin1', 8, 12) === 'WEBP',
};

type AssignedDevice = { deviceId: string; customerId: number };

function assigned(ctx: DeviceContext): AssignedDevice {
  // The route admits assigned devices only; a device unclaimed meanwhile is refused the same way.
  if (ctx.device.customerId === null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');

  return { deviceId: ctx.device.deviceId, customerId: ctx.device.customerId };
}

const isScreenshotType = (type: string): type is (typeof SCREENSHOT_TYPES)[number] => (SCREENSHOT_TYPES as readonly string[]).includes(type);
const emptyScreenshot = () => new ValidationError('display.error.emptyScreenshot', 'The screenshot body is empty');
const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * A pass-through that holds the first bytes until it can tell the image type from them, and fails the
 * stream (415 `display.error.imageMismatch`) when they are not the declared type: nothing is stored.
 */
class ImageTypeCheck extends Transform {
  private head: Buffer[] = [];
  private headSize = 0;
  private checked = false;

  constructor(private readonly declared: (typeof SCREENSHOT_TYPES)[number]) {
    super();
  }

  private verdict(): Error | undefined {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    if (head.length === 0) return emptyScreenshot();
    if (SIGNATURES[this.declared](head)) {
      this.push(head);

      return undefined;
    }

    return new AppError(415, 'display.error.imageMismatch', `The body is not a ${this.declared} image`, { contentType: this.declared });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.checked) return callback(null, chunk);
    this.head.push(chunk);
    this.headSize += chunk.length;
    callback(this.headSize >= SIGNATURE_BYTES ? this.verdict() : undefined);
  }

  override _flush(callback: TransformCallback) {
    callback(this.checked ? undefined : this.verdict());
  }
}

/** `body` through `check`, the body's own failure (413 past the route's limit, a client gone) failing it too. */
function through(body: Readable, check: Transform): Readable {
  body.once('error', (err) => check.destroy(err));

  return body.pipe(check);
}

/**
 * PUT /api/display/screenshot: the image, of a declared type its first bytes confirm, streamed to storage
 * within 5 MB, then recorded as the device's newest screenshot (devices module: row, previewPath, history
 * bound, change listeners).
 */
export async function storeScreenshot(ctx: DeviceContext, input: { contentType: string | undefined; body: Readable | undefined; highRes?: boolean }): Promise<void> {
  const device = assigned(ctx);
  const declared = mediaTypeOf(input.contentType);
  if (!isScreenshotType(declared)) {
    throw new AppError(415, 'display.error.unsupportedImageType', `A screenshot is ${SCREENSHOT_TYPES.join(', ')}`, { contentType: declared || null });
  }
  if (!input.body) throw emptyScreenshot();
  const id = uuidv7();
  const key = devicePreviewBlobKey(device.customerId, device.deviceId, id);
  // A crash between the blob and its row leaves this entry: the cleanup job removes the orphan later.
  await insertCleanupEntries(ctx.db, [key], new Date(Date.now() + SCREENSHOT_GRACE_MS), 'device screenshot upload');
  let size: number;
  try {
    size = (await ctx.storage.put(key, through(input.body, new ImageTypeCheck(declared)), { contentType: declared, maxBytes: SCREENSHOT_MAX_BYTES })).size;
  } catch (error) {
    await deleteCleanupEntries(ctx.db, [key]).catch(() => undefined);
    if (error instanceof AppError && error.status === 413) throw new BodyTooLargeError(SCREENSHOT_MAX_BYTES);
    throw error;
  }
  const preview = { id, deviceId: device.deviceId, customerId: device.customerId, storageKey: key, contentType: declared, size, highRes: input.highRes ?? false };
  if (!(await recordDevicePreview(ctx, preview))) {
    // Deleted meanwhile: as if its token had gone with it.
    await discardBlobs(ctx, [key]);
    throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  }
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
    if (!KNOWN_TYPES.has(sample.type)) return reject('display.error.unknownMetricType', `Unknown metric type '${sample.type.slice(0, 64)}'`);
    if (sample.timestamp > now + METRIC_MAX_FUTURE_MS) return reject('display.error.metricInFuture', 'The timestamp is more than 5 minutes in the future');
    if (sample.timestamp < now - METRIC_MAX_AGE_MS) return reject('display.error.metricTooOld', 'The timestamp is more than a year in the past');
    accepted.push({ type: sample.type, sampledAt: new Date(sample.timestamp), value: sample.value });
  });
  await insertMetricSamples(ctx.db, device.deviceId, accepted);

  return { accepted: accepted.length, rejected };
}

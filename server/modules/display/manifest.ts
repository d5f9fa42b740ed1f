import { createHash } from 'node:crypto';
import { and, sql } from 'drizzle-orm';
import type { Config } from '@/server/config';
import type { DeviceContext, ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidArrayParam, uuidEquals } from '@/server/db/sql';
import { NotFoundError, UnauthorizedError, ValidationError } from '@/server/errors';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceAccess } from '@/server/modules/devices/devices.service';
import { signedDownloadUrl } from '@/server/modules/uploads/downloads.service';
import type { DeviceSchedule, Manifest, ManifestContent, ManifestFile, PlaybackExplanation, Segment } from './display.schemas';
import { findClosureFiles, findContentClosure, findDevicesShowing, findPlaybackDevice, findPlaybackDevices, type ClosureContent, type ClosureFile, type PlaybackDevice } from './manifest.queries';
import { explainPlayback, resolveSegments, resolveSegmentsOfDevices, segmentContentIds, segmentFileIds, type PlaybackWindow } from './playback';

/*
 * The device manifest (spec 4 §4): the playback resolution over [generatedAt, validUntil), the content it
 * plays with everything that content embeds, the files of all of it with signed URLs, and one ETag for the
 * manifest, the heartbeat and the WebSocket (`manifestEtag`).
 */

const DAY_MS = 24 * 3_600_000;
/** The schedule endpoint's longest window (spec 4 §4). */
export const SCHEDULE_MAX_MS = 7 * DAY_MS;

/**
 * The manifest's validity period: `validUntil` is the second UTC midnight after `now` (24–48 h ahead), and
 * file URLs are signed until a day later. Every manifest of one UTC day has the same validity and the same
 * URLs, so the ETag (which covers this period) changes once a day: a device answered 304 never keeps URLs
 * that expire before its manifest does.
 */
export function manifestPeriod(now: number): { validUntil: number; urlsExpireAt: number } {
  const validUntil = (Math.floor(now / DAY_MS) + 2) * DAY_MS;

  return { validUntil, urlsExpireAt: validUntil + DAY_MS };
}

type Resolved = { device: PlaybackDevice; window: PlaybackWindow; segments: Segment[]; contents: ClosureContent[]; files: ClosureFile[]; etag: string };

/** What `device` shows over the manifest window from `now`: two statements (the closure, its files) after the device's own. */
async function resolveManifest(db: Executor, device: PlaybackDevice, now: number, withData: boolean): Promise<Resolved> {
  const window = { from: now, to: manifestPeriod(now).validUntil };
  const segments = await resolveSegments(db, device, window);
  const { contents, files, digest } = await readClosure(db, device.customerId, segmentContentIds(segments), segmentFileIds(segments), withData);

  return { device, window, segments, contents, files, etag: etagOf(device, window, segments, digest) };
}

/** The content the segments play with everything it embeds, and the files of all of it (two statements). */
type Closure = { contents: ClosureContent[]; files: ClosureFile[]; digest: string };

async function readClosure(db: Executor, customerId: number, contentIds: readonly string[], fileIds: readonly string[], withData: boolean): Promise<Closure> {
  const contents = await findContentClosure(db, customerId, contentIds, withData);
  const files = await findClosureFiles(db, customerId, contents.map((c) => c.id), fileIds);

  return { contents, files, digest: closureDigest(contents, files) };
}

/**
 * The ETag: a hash of what the manifest shows (time zone, settings, the segments' layers, content and
 * channels with their inner boundaries, every content's name, kind, version and document, every file's
 * fields and folder membership) and of the URL period (`manifestPeriod`). Not of `generatedAt` or the
 * window's own ends: it is stable while nothing shown changes. The closure's part (`closureDigest`) is
 * written once for all the devices that show the same content.
 */
function etagOf(device: Pick<PlaybackDevice, 'timeZone' | 'settings'>, window: PlaybackWindow, segments: Segment[], closure: string): string {
  const shown = {
    v: 2,
    period: manifestPeriod(window.from).validUntil,
    timeZone: device.timeZone,
    settings: device.settings,
    segments: segments.map((s) => ({ ...s, from: s.from === window.from ? null : s.from, to: s.to === window.to ? null : s.to })),
  };

  return createHash('sha256').update(JSON.stringify(shown)).update(closure).digest('base64url').slice(0, 27);
}

/** What the ETag hashes of a content closure and its files. */
function closureDigest(contents: readonly ClosureContent[], files: readonly ClosureFile[]): string {
  return JSON.stringify({
    contents: contents.map((c) => [c.id, c.name, c.deviceContentType, c.structureType, c.version, c.dataHash]),
    files: files.map((f) => [f.id, f.name, f.contentType, f.size, f.crcCheckSum, f.width, f.height, f.durationSeconds, f.validFrom, f.validTo, f.inFolders]),
  });
}

const claimedDevice = (db: Executor, deviceId: string) => findPlaybackDevice(db, uuidEquals(devices.id, deviceId));

/**
 * The manifest ETag of a device (bare, without quotes): the same value the manifest answers, for the
 * heartbeat and the WebSocket. An unclaimed device has nothing to play: the ETag of an empty manifest.
 */
export async function manifestEtag(db: Executor, deviceId: string, now = Date.now()): Promise<string> {
  return (await manifestEtags(db, [deviceId], now)).get(deviceId)!;
}

const unclaimedEtag = (deviceId: string, now: number) =>
  etagOf({ timeZone: 'UTC', settings: {} }, { from: now, to: now }, [], closureDigest([], []));

/**
 * The manifest ETags of many devices at once (a change fanned out to thousands of screens, a reconnect storm),
 * each the value its own manifest answers. Per tenant, the devices' facts and the campaigns that can reach any
 * of them are read once; devices the rules cannot tell apart are resolved once, devices that play the same
 * content share one closure read, and those with the same settings too one ETag. A fixed number of
 * statements per tenant and distinct closure, not per device.
 */
export async function manifestEtags(db: Executor, deviceIds: readonly string[], now = Date.now()): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  const unique = [...new Set(deviceIds)];
  const claimed = unique.length === 0 ? [] : await findPlaybackDevices(db, sql`${devices.id} = any(${uuidArrayParam(unique)})`);
  const window = { from: now, to: manifestPeriod(now).validUntil };
  const byCustomer = new Map<number, PlaybackDevice[]>();
  for (const device of claimed) {
    const list = byCustomer.get(device.customerId);
    if (list) list.push(device);
    else byCustomer.set(device.customerId, [device]);
  }
  for (const [customerId, tenantDevices] of byCustomer) {
    const resolved = await resolveSegmentsOfDevices(db, customerId, tenantDevices, window);
    // Devices that play the same segments share the closure read, and with the same settings the ETag itself.
    const closures = new Map<string, Promise<Closure>>();
    const closureOf = new Map<string, Promise<Closure>>();
    const shared = new Map<string, string>();
    await Promise.all(
      tenantDevices.map(async (device) => {
        const { key, segments } = resolved.get(device.id) ?? { key: device.id, segments: [] };
        let closure = closureOf.get(key);
        if (!closure) {
          const contentIds = segmentContentIds(segments);
          const fileIds = segmentFileIds(segments);
          const idsKey = `${contentIds.join(',')}|${fileIds.join(',')}`;
          closure = closures.get(idsKey);
          if (!closure) closures.set(idsKey, (closure = readClosure(db, customerId, contentIds, fileIds, false)));
          closureOf.set(key, closure);
        }
        const { digest } = await closure;
        const etagKey = `${key}\n${JSON.stringify(device.settings)}`;
        let etag = shared.get(etagKey);
        if (etag === undefined) shared.set(etagKey, (etag = etagOf(device, window, segments, digest)));
        etags.set(device.id, etag);
      }),
    );
  }
  for (const id of unique) if (!etags.has(id)) etags.set(id, unclaimedEtag(id, now));

  return etags;
}

function manifestFile(config: Config, customerId: number, file: ClosureFile, input: { urlsExpireAt: number; baseUrl: string }): ManifestFile {
  const seconds = Number(file.durationSeconds);

  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: Number(file.size),
    crcCheckSum: file.crcCheckSum,
    ...(file.durationSeconds !== null && Number.isFinite(seconds) && seconds > 0 ? { durationMs: Math.round(seconds * 1000) } : {}),
    ...(file.width !== null ? { width: file.width } : {}),
    ...(file.height !== null ? { height: file.height } : {}),
    ...(file.validFrom !== null ? { validFrom: file.validFrom } : {}),
    ...(file.validTo !== null ? { validTo: file.validTo } : {}),
    url: signedDownloadUrl(config, { customerId, fileId: file.id, expiresAt: new Date(input.urlsExpireAt), baseUrl: input.baseUrl }),
  };
}

function manifestContent(content: ClosureContent): ManifestContent {
  return {
    id: content.id,
    name: content.name,
    deviceContentType: content.deviceContentType,
    ...(content.structureType ? { structureType: content.structureType } : {}),
    data: content.data,
  };
}

/** GET /api/display/manifest: what the calling (assigned) device plays from now until `validUntil`. */
export async function deviceManifest(ctx: DeviceContext, input: { baseUrl: string; now?: number }): Promise<Manifest> {
  const now = input.now ?? Date.now();
  const device = await claimedDevice(ctx.db, ctx.device.deviceId);
  // Deleted or unclaimed since authentication: as if the token had gone with it.
  if (!device) throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  const resolved = await resolveManifest(ctx.db, device, now, true);
  const { validUntil, urlsExpireAt } = manifestPeriod(now);
  const folders: Record<string, string[]> = {};
  for (const file of resolved.files) for (const folderId of file.inFolders) (folders[folderId] ??= []).push(file.id);

  return {
    etag: resolved.etag,
    generatedAt: now,
    validUntil,
    timeZone: device.timeZone,
    settings: device.settings,
    segments: resolved.segments,
    contents: Object.fromEntries(resolved.contents.map((c) => [c.id, manifestContent(c)])),
    files: Object.fromEntries(resolved.files.map((f) => [f.id, manifestFile(ctx.config, device.customerId, f, { urlsExpireAt, baseUrl: input.baseUrl })])),
    folders,
  };
}

/** Whether an `If-None-Match` header names the (bare) ETag. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;

  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1') === etag);
}

/**
 * GET /api/v2/device/{id}/schedule: the same resolution as the device's manifest, over [from, to) (default
 * now .. now + 24 h, at most 7 days). Another tenant's device, an unclaimed one or one the caller's teams
 * do not show is a 404.
 */
export async function deviceSchedule(ctx: ServiceContext, id: string, input: { from?: number; to?: number; now?: number }): Promise<DeviceSchedule> {
  const now = input.now ?? Date.now();
  const from = input.from ?? (input.to !== undefined ? input.to - DAY_MS : now);
  const to = input.to ?? from + DAY_MS;
  if (to <= from) throw new ValidationError('request.error.invalid', '`to` must be after `from`', { parameter: 'to' });
  if (to - from > SCHEDULE_MAX_MS) throw new ValidationError('request.error.invalid', 'The window is at most 7 days', { parameter: 'to' });
  const device = await findPlaybackDevice(ctx.db, and(uuidEquals(devices.id, id), scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx)) ?? sql`true`);
  if (!device) throw new NotFoundError('device', id);

  return { deviceId: device.id, timeZone: device.timeZone, from, to, segments: await resolveSegments(ctx.db, device, { from, to }) };
}

/**
 * GET /api/v2/device/{id}/schedule/explain: why each campaign of the tenant plays or not on the device at
 * `at` (default now). The same visibility rules as the schedule (404 for another tenant's, an unclaimed or an
 * invisible device).
 */
export async function deviceScheduleExplain(ctx: ServiceContext, id: string, input: { at?: number; now?: number }): Promise<PlaybackExplanation> {
  const at = input.at ?? input.now ?? Date.now();
  const device = await findPlaybackDevice(ctx.db, and(uuidEquals(devices.id, id), scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx)) ?? sql`true`);
  if (!device) throw new NotFoundError('device', id);

  return explainPlayback(ctx.db, device, at);
}

/**
 * The claimed devices of `customerId` whose manifest may change when the content items `contentIds` or the
 * files `fileIds` change (their documents, names, bytes): those whose assigned or emergency content (or the
 * customer's default emergency content, in emergency) embeds them, transitively. For `manifestChanged`
 * pushes; call it before a delete or a replacement removes the references.
 */
export function devicesAffectedBy(db: Executor, input: { customerId: number; contentIds?: readonly string[]; fileIds?: readonly string[]; emergencyDefault?: boolean }): Promise<string[]> {
  return findDevicesShowing(db, input);
}

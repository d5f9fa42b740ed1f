import { createHash } from 'node:crypto';
import { and, sql } from 'drizzle-orm';
import type { Config } from '@/server/config';
import type { DeviceContext, ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { NotFoundError, UnauthorizedError, ValidationError } from '@/server/errors';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceAccess } from '@/server/modules/devices/devices.service';
import { signedDownloadUrl } from '@/server/modules/uploads/downloads.service';
import type { DeviceSchedule, Manifest, ManifestContent, ManifestFile, PlaybackExplanation, Segment } from './display.schemas';
import { findClosureFiles, findContentClosure, findDevicesShowing, findPlaybackDevice, type ClosureContent, type ClosureFile, type PlaybackDevice } from './manifest.queries';
import { explainPlayback, resolveSegments, segmentContentIds, segmentFileIds, type PlaybackWindow } from './playback';

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
  const contents = await findContentClosure(db, device.customerId, segmentContentIds(segments), withData);
  const files = await findClosureFiles(db, device.customerId, contents.map((c) => c.id), segmentFileIds(segments));

  return { device, window, segments, contents, files, etag: etagOf(device, window, segments, contents, files) };
}

/**
 * The ETag: a hash of what the manifest shows (time zone, settings, the segments' layers, content and
 * channels with their inner boundaries, every content's name, kind, version and document, every file's
 * fields and folder membership) and of the URL period (`manifestPeriod`). Not of `generatedAt` or the
 * window's own ends: it is stable while nothing shown changes.
 */
function etagOf(device: PlaybackDevice, window: PlaybackWindow, segments: Segment[], contents: ClosureContent[], files: ClosureFile[]): string {
  const shown = {
    v: 1,
    period: manifestPeriod(window.from).validUntil,
    timeZone: device.timeZone,
    settings: device.settings,
    segments: segments.map((s) => ({ ...s, from: s.from === window.from ? null : s.from, to: s.to === window.to ? null : s.to })),
    contents: contents.map((c) => [c.id, c.name, c.deviceContentType, c.structureType, c.version, c.dataHash]),
    files: files.map((f) => [f.id, f.name, f.contentType, f.size, f.crcCheckSum, f.width, f.height, f.durationSeconds, f.validFrom, f.validTo, f.inFolders]),
  };

  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 27);
}

const claimedDevice = (db: Executor, deviceId: string) => findPlaybackDevice(db, uuidEquals(devices.id, deviceId));

/**
 * The manifest ETag of a device (bare, without quotes): the same value the manifest answers, for the
 * heartbeat and the WebSocket. An unclaimed device has nothing to play: the ETag of an empty manifest.
 */
export async function manifestEtag(db: Executor, deviceId: string, now = Date.now()): Promise<string> {
  const device = await claimedDevice(db, deviceId);
  if (!device) return etagOf({ id: deviceId, customerId: 0, timeZone: 'UTC', settings: {}, emergencyStatus: false, emergencyContent: null, content: null }, { from: now, to: now }, [], [], []);

  return (await resolveManifest(db, device, now, false)).etag;
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

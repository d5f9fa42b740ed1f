import { and, sql } from 'drizzle-orm';
import type { Config } from '@/server/config';
import type { DeviceContext, ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidArrayParam, uuidEquals } from '@/server/db/sql';
import { NotFoundError, UnauthorizedError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION, MAX_EPOCH_MS } from '@/server/http/wire.schemas';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceAccess } from '@/server/modules/devices';
import { contentDataToWire } from '@/server/modules/content/slide-document.schemas';
import { signedDownloadUrl } from '@/server/modules/uploads';
import type { DeviceSchedule, Manifest, ManifestContent, ManifestFile, PlaybackExplanation } from './display.schemas';
import { resolveSegments as resolveRules, targetedRules, type CampaignRules, type DeviceFacts } from '@/server/playback/resolver';
import { closureOf } from './manifest-closure';
import { manifestEtagStoreOf } from './manifest-etag-store';
import { campaignItems, emptyManifestEtag, layerContentIds, manifestEtagOf } from './manifest-etag';
import {
  findContentGraph,
  findContentUsingDatasource,
  findDevicesShowing,
  findManifestDatasources,
  findPlaybackDevice,
  findPlaybackDevices,
  type ClosureContent,
  type ClosureFile,
  type ContentGraph,
  type PlaybackDevice,
} from './manifest.queries';
import { explainPlayback, loadPlayback, loadPlaybackOfDevices, resolveSegments, segmentContentIds, segmentFileIds } from './playback';

/*
 * The device manifest (spec 4 §4): the playback resolution over [generatedAt, validUntil), the content it
 * plays with everything that content embeds, the files of all of it with signed URLs, and one ETag for the
 * manifest, the heartbeat and the WebSocket (`manifestEtag`).
 */

const DAY_MS = 24 * 3_600_000;
/** The schedule endpoint's longest window (spec 4 §4). */
const SCHEDULE_MAX_MS = 7 * DAY_MS;

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

/** The content graph of what `campaigns` and the devices' layers may play (two statements). */
export function readManifestGraph(
  db: Executor,
  customerId: number,
  campaigns: readonly CampaignRules[],
  facts: Iterable<DeviceFacts>,
  dataOf: readonly string[] = [],
): Promise<ContentGraph> {
  const { contentIds, fileIds } = campaignItems(campaigns);

  return findContentGraph(db, customerId, [...contentIds, ...layerContentIds(facts)], fileIds, dataOf);
}

const claimedDevice = (db: Executor, deviceId: string) => findPlaybackDevice(db, uuidEquals(devices.id, deviceId));

/**
 * The manifest ETag of a device (bare, without quotes): the same value the manifest answers, for the
 * heartbeat and the WebSocket. An unclaimed device has nothing to play: the ETag of an empty manifest.
 */
export async function manifestEtag(db: Executor, deviceId: string, now = Date.now()): Promise<string> {
  return (await manifestEtags(db, [deviceId], now)).get(deviceId)!;
}

const unclaimedEtag = (now: number) => emptyManifestEtag(manifestPeriod(now).validUntil);

/**
 * The manifest ETags of many devices at once (a change fanned out to thousands of screens, a reconnect storm),
 * each the value its own manifest answers, without resolving any of them. Per tenant: the devices' facts, the
 * campaigns that can reach any of them and the content graph of all they may play, read once (a fixed number
 * of statements, not per device); then per device only which campaigns target it, and one hash per sharing key.
 */
export async function manifestEtags(db: Executor, deviceIds: readonly string[], now = Date.now()): Promise<Map<string, string>> {
  const store = manifestEtagStoreOf(db);
  const generation = store?.begin() ?? 0;
  const { validUntil } = manifestPeriod(now);
  const etags = new Map<string, string>();
  const unique = [...new Set(deviceIds)];
  const claimed = unique.length === 0 ? [] : await findPlaybackDevices(db, sql`${devices.id} = any(${uuidArrayParam(unique)})`);
  const byCustomer = new Map<number, PlaybackDevice[]>();
  for (const device of claimed) {
    const list = byCustomer.get(device.customerId);
    if (list) list.push(device);
    else byCustomer.set(device.customerId, [device]);
  }
  for (const [customerId, tenantDevices] of byCustomer) {
    const { facts, rules } = await loadPlaybackOfDevices(db, customerId, tenantDevices);
    const graph = await readManifestGraph(db, customerId, rules.campaigns, facts.values());
    const shared = new Map<string, string>();
    for (const device of tenantDevices) {
      const own = facts.get(device.id)!;
      const targeted = targetedRules(rules, own);
      const key = `${targeted.key}\n${JSON.stringify(device.settings)}`;
      let etag = shared.get(key);
      if (etag === undefined) shared.set(key, (etag = manifestEtagOf({ device, facts: own, targeted, graph, validUntil })));
      etags.set(device.id, etag);
    }
  }
  for (const id of unique) if (!etags.has(id)) etags.set(id, unclaimedEtag(now));
  // What was just worked out is the current ETag (a change the notices missed is caught up here too).
  if (store) for (const [id, etag] of etags) store.store(id, etag, validUntil, generation);

  return etags;
}

/** A file of the manifest; its URL is signed for the device (one of its credentials, spec 4 §2). */
function manifestFile(
  config: Config,
  customerId: number,
  file: ClosureFile,
  input: { urlsExpireAt: number; baseUrl: string; deviceId: string },
): ManifestFile {
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
    url: signedDownloadUrl(config, {
      customerId,
      fileId: file.id,
      expiresAt: new Date(input.urlsExpireAt),
      baseUrl: input.baseUrl,
      deviceId: input.deviceId,
    }),
  };
}

function manifestContent(content: ClosureContent): ManifestContent {
  return {
    id: content.id,
    name: content.name,
    deviceContentType: content.deviceContentType,
    ...(content.structureType ? { structureType: content.structureType } : {}),
    // A slide's pages keyed by name, as every answer has them (DECISIONS §2).
    data: contentDataToWire(content.data) as ManifestContent['data'],
  };
}

/**
 * GET /api/display/manifest: what the calling (assigned) device plays from now until `validUntil`, with its
 * ETag. When `ifNoneMatch` names that ETag, only the ETag (the device keeps its manifest and nothing is
 * serialized); when it names the device's stored ETag (`ManifestEtagStore`), nothing is resolved either.
 */
export async function deviceManifest(
  ctx: DeviceContext,
  input: { baseUrl: string; now?: number; ifNoneMatch?: string },
): Promise<{ etag: string; manifest?: Manifest }> {
  const now = input.now ?? Date.now();
  const { validUntil, urlsExpireAt } = manifestPeriod(now);
  const store = manifestEtagStoreOf(ctx.db);
  // The device has the current manifest: answered from the stored ETag, nothing read or resolved.
  const known = input.ifNoneMatch === undefined ? undefined : store?.get(ctx.device.deviceId, validUntil);
  if (known !== undefined && etagMatches(input.ifNoneMatch, known)) return { etag: known };
  const generation = store?.begin() ?? 0;
  const device = await claimedDevice(ctx.db, ctx.device.deviceId);
  // Deleted or unclaimed since authentication: as if the token had gone with it.
  if (!device) throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  const { facts, rules } = await loadPlayback(ctx.db, device);
  const targeted = targetedRules(rules, facts);
  // The targeted campaigns alone decide the segments (sharing-key.unit.test.ts).
  const segments = resolveRules(targeted.rules, facts, { from: now, to: validUntil });
  const roots = segmentContentIds(segments);
  // The graph of all the targeted campaigns and layers may play, documents for what the segments play: the ETag's closures and the manifest's from one read.
  const graph = await readManifestGraph(ctx.db, device.customerId, targeted.rules.campaigns, [facts], roots);
  const etag = manifestEtagOf({ device, facts, targeted, graph, validUntil });
  store?.store(device.id, etag, validUntil, generation);
  if (etagMatches(input.ifNoneMatch, etag)) return { etag };
  const { contents, files } = closureOf(graph, roots, segmentFileIds(segments));
  const folders: Record<string, string[]> = {};
  for (const file of files) for (const folderId of file.inFolders) (folders[folderId] ??= []).push(file.id);
  const datasources = await findManifestDatasources(
    ctx.db,
    device.customerId,
    contents.map((c) => c.id),
  );
  const manifest: Manifest = {
    etag,
    generatedAt: now,
    validUntil,
    timeZone: device.timeZone,
    settings: device.settings,
    segments,
    contents: Object.fromEntries(contents.map((c) => [c.id, manifestContent(c)])),
    files: Object.fromEntries(
      files.map((f) => [
        f.id,
        manifestFile(ctx.config, device.customerId, f, { urlsExpireAt, baseUrl: input.baseUrl, deviceId: device.id }),
      ]),
    ),
    folders,
    datasources: Object.fromEntries(datasources.map(({ hash, ...d }) => [d.id, hash === null ? d : { ...d, etag: `"${hash}"` }])),
  };

  return { etag, manifest };
}

/** Whether an `If-None-Match` header names the (bare) ETag. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;

  return header.split(',').some(
    (candidate) =>
      candidate
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1') === etag,
  );
}

/** The window a schedule read covers: `from` defaults to now (or `to` − 24 h), `to` to `from` + 24 h, at most 7 days (400 otherwise). */
export function scheduleWindow(input: { from?: number; to?: number; now?: number }): { from: number; to: number } {
  const now = input.now ?? Date.now();
  // A default bound a day from the given one stays within the instants the API takes (0 to the end of year 9999).
  const from = input.from ?? (input.to !== undefined ? Math.max(0, input.to - DAY_MS) : now);
  const to = input.to ?? Math.min(MAX_EPOCH_MS, from + DAY_MS);
  if (to <= from) throw new ValidationError(INVALID_COMBINATION, '`to` must be after `from`', { parameter: 'to' });
  if (to - from > SCHEDULE_MAX_MS) throw new ValidationError(INVALID_COMBINATION, 'The window is at most 7 days', { parameter: 'to' });

  return { from, to };
}

/**
 * GET /api/v2/device/{id}/schedule: the same resolution as the device's manifest, over [from, to) (default
 * now .. now + 24 h, at most 7 days). Another tenant's device, an unclaimed one or one the caller's teams
 * do not show is a 404.
 */
export async function deviceSchedule(
  ctx: ServiceContext,
  id: string,
  input: { from?: number; to?: number; now?: number },
): Promise<DeviceSchedule> {
  const { from, to } = scheduleWindow(input);
  const device = await findPlaybackDevice(
    ctx.db,
    and(uuidEquals(devices.id, id), scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx)) ?? sql`true`,
  );
  if (!device) throw new NotFoundError('device', id);

  return { deviceId: device.id, timeZone: device.timeZone, from, to, segments: await resolveSegments(ctx.db, device, { from, to }) };
}

/**
 * GET /api/v2/device/{id}/schedule/explain: why each campaign of the tenant plays or not on the device at
 * `at` (default now). The same visibility rules as the schedule (404 for another tenant's, an unclaimed or an
 * invisible device).
 */
export async function deviceScheduleExplain(
  ctx: ServiceContext,
  id: string,
  input: { at?: number; now?: number },
): Promise<PlaybackExplanation> {
  const at = input.at ?? input.now ?? Date.now();
  const device = await findPlaybackDevice(
    ctx.db,
    and(uuidEquals(devices.id, id), scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx)) ?? sql`true`,
  );
  if (!device) throw new NotFoundError('device', id);

  return explainPlayback(ctx.db, device, at);
}

/**
 * The claimed devices of `customerId` whose manifest may change when the content items `contentIds` or the
 * files `fileIds` change (their documents, names, bytes): those whose assigned or emergency content (or the
 * customer's default emergency content, in emergency) embeds them, transitively. For `manifestChanged`
 * pushes; call it before a delete or a replacement removes the references.
 */
/** The devices whose manifest may show the datasource: those playing content (or content embedding content) that uses it. */
export async function devicesUsingDatasource(db: Executor, input: { customerId: number; datasourceId: string }): Promise<string[]> {
  const contentIds = await findContentUsingDatasource(db, input);

  return contentIds.length === 0 ? [] : findDevicesShowing(db, { customerId: input.customerId, contentIds });
}

export function devicesAffectedBy(
  db: Executor,
  input: { customerId: number; contentIds?: readonly string[]; fileIds?: readonly string[]; emergencyDefault?: boolean },
): Promise<string[]> {
  return findDevicesShowing(db, input);
}

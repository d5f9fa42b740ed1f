import { and, sql } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { uuidArrayParam } from '@/server/db/sql';
import { NotFoundError } from '@/server/errors';
import { deviceAccess } from '@/server/modules/devices';
import { devices } from '@/server/modules/devices/devices.table';
import { nowPlaying } from '@/server/playback/resolver';
import type { DeviceNowPlaying, NowPlayingList } from './display.schemas';
import { findPlaybackDevices, type PlaybackDevice } from './manifest.queries';
import { loadPlaybackOfDevices } from './playback';

/**
 * POST /api/v2/device/schedule/now: what each of a page of devices plays now. The devices are read in one
 * statement (scope and team visibility in SQL, 404 naming the first id the caller does not see), then each
 * tenant among them loads its facts and candidate campaigns once (loadPlaybackOfDevices: a fixed number of
 * statements) and the pure resolver answers each device at the same instant.
 */
export async function devicesNowPlaying(ctx: ServiceContext, input: { deviceIds: string[]; now?: number }): Promise<NowPlayingList> {
  const at = input.now ?? Date.now();
  const ids = [...new Set(input.deviceIds.map((id) => id.toLowerCase()))];
  const where =
    and(sql`${devices.id} = any(${uuidArrayParam(ids)})`, scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx)) ?? sql`true`;
  const found = new Map((await findPlaybackDevices(ctx.db, where)).map((d) => [d.id, d]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new NotFoundError('device', missing);

  const byCustomer = new Map<number, PlaybackDevice[]>();
  for (const device of found.values()) byCustomer.set(device.customerId, [...(byCustomer.get(device.customerId) ?? []), device]);
  const answers = new Map<string, DeviceNowPlaying>();
  for (const [customerId, group] of byCustomer) {
    const { facts, rules } = await loadPlaybackOfDevices(ctx.db, customerId, group);
    for (const device of group) answers.set(device.id, { deviceId: device.id, ...nowPlaying(rules, facts.get(device.id)!, at) });
  }

  return { at, devices: ids.map((id) => answers.get(id)!) };
}

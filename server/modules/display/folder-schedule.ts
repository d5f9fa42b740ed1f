import { and } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { NotFoundError } from '@/server/errors';
import { deviceAccess } from '@/server/modules/devices';
import { devices } from '@/server/modules/devices/devices.table';
import { findFolderRow, folderAccessCondition } from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { resolveSegments, targetedRules } from '@/server/playback/resolver';
import type { FolderSchedule } from './display.schemas';
import { inDeviceGroup } from './display.queries';
import { scheduleWindow } from './manifest';
import { findPlaybackDevices } from './manifest.queries';
import { loadPlaybackOfDevices } from './playback';

/*
 * What a device folder plays (the schedules calendar, docs/decisions.md "Folder calendar"): every claimed screen
 * in the folder and below it that the caller sees, resolved exactly as its manifest is. Screens with the same
 * zone, layers and targeted campaigns (the resolver's plan key) play the same segments, so each distinct plan is
 * resolved once and answered with the screens that share it: the work grows with the distinct plans, not with the
 * screens. A RANDOM channel order differs per screen only in item order, which a calendar does not show.
 */

/** GET /api/v2/deviceGroup/{id}/schedule. 404 for another tenant's folder or one the caller's teams do not show. */
export async function folderSchedule(
  ctx: ServiceContext,
  folderId: string,
  input: { from?: number; to?: number; now?: number },
): Promise<FolderSchedule> {
  const window = scheduleWindow(input);
  const folder = await findFolderRow(ctx.db, deviceGroups, folderId, ctx.scope, folderAccessCondition(ctx, deviceGroups, 'deviceGroup'));
  if (!folder) throw new NotFoundError('deviceGroup', folderId);
  const screens = await findPlaybackDevices(
    ctx.db,
    and(inDeviceGroup(folderId), scopeCondition(ctx.scope, devices.customerId), deviceAccess(ctx))!,
  );
  const plans = new Map<string, FolderSchedule['plans'][number]>();
  // A folder belongs to one tenant, so do its screens: one read of facts and campaigns for all of them.
  const customerId = screens[0]?.customerId;
  if (customerId !== undefined) {
    const { facts, rules } = await loadPlaybackOfDevices(ctx.db, customerId, screens);
    for (const screen of screens) {
      const own = facts.get(screen.id)!;
      const targeted = targetedRules(rules, own);
      const plan = plans.get(targeted.planKey);
      if (plan) plan.deviceIds.push(screen.id);
      else
        plans.set(targeted.planKey, {
          timeZone: screen.timeZone,
          deviceIds: [screen.id],
          segments: resolveSegments(targeted.rules, own, window),
        });
    }
  }
  const ordered = [...plans.values()].map((plan) => ({ ...plan, deviceIds: plan.deviceIds.sort() }));
  ordered.sort((a, b) => b.deviceIds.length - a.deviceIds.length || a.deviceIds[0]!.localeCompare(b.deviceIds[0]!));

  return { folderId, ...window, screens: screens.length, plans: ordered };
}

import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { ValidationError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import { folderAccessCondition } from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { maxTagsTotalLength, normalizeTags, registerTags, tagVerbSql, type TagVerb } from '@/server/modules/tags';
import { readOnlyExpression } from '@/server/modules/teams';
import { compileSearch } from '@/server/query';
import { deviceResource } from './devices.resource';
import { batchCustomerId, deviceAccess } from './devices.service';
import { devices } from './devices.table';
import { announceDeviceChange } from './device-changes';
import { deviceFolderResource } from './device-folder-search';
import { anyDeviceMatches, updateTargetDevices } from './devices.queries';

/*
 * Batch verbs over devices (spec 3 "Devices and device folders"): `customerId` names the one tenant, `search`
 * which devices (every device of the tenant when absent), `applyOn` what the search targets. The devices
 * are never read into memory: each verb is one statement whose WHERE is the compiled search, the tenant
 * and the caller's team writability.
 */

export const APPLY_ON = ['DEVICE', 'DEVICEGROUP', 'ALL'] as const;
export type ApplyOn = (typeof APPLY_ON)[number];

/**
 * The devices of `customerId` a batch acts on, as a condition on `device`. `DEVICE`: the search is over
 * devices; `DEVICEGROUP`: the search is over the device folders the caller sees, and a matching folder
 * brings every device in it or in a folder below it (through `group_path`, the GIN-indexed copy of the
 * folder's path: one subquery, no folder read first); `ALL`: every device of the tenant (the search is
 * ignored). Writable only: a device the caller's teams give read-only access to is left alone.
 */
export function batchTargets(ctx: ServiceContext, customerId: number, input: { search?: string; applyOn?: ApplyOn }): SQL {
  const applyOn = input.applyOn ?? 'DEVICE';
  const search = applyOn === 'ALL' ? undefined : input.search?.trim() || undefined;
  const searched =
    search === undefined
      ? undefined
      : applyOn === 'DEVICE'
        ? compileSearch(deviceResource, search)
        : inMatchingFolders(ctx, customerId, search);

  return and(
    sql`${devices.customerId} = ${customerId}`,
    deviceAccess(ctx),
    sql`not ${readOnlyExpression(ctx, 'device', devices.id)}`,
    searched,
  )!;
}

/** The device lies in or below a folder of `customerId` that the caller sees and that matches `search` (a device folder search). */
function inMatchingFolders(ctx: ServiceContext, customerId: number, search: string): SQL {
  const folders = and(
    eq(deviceGroups.customerId, customerId),
    folderAccessCondition(ctx, deviceGroups, 'deviceGroup'),
    compileSearch(deviceFolderResource(), search),
  );

  return sql`${devices.groupPath} && (select coalesce(array_agg(${deviceGroups.id}), array[]::uuid[]) from ${deviceGroups} where ${folders})`;
}

/** POST /api/v2/device/tags/{add,set,remove}?customerId=&search=&applyOn=: answers how many devices changed. */
export async function bulkDeviceTags(
  ctx: ServiceContext,
  input: { verb: TagVerb; search?: string; applyOn?: ApplyOn; tags: string[] },
): Promise<{ updated: number }> {
  const customerId = batchCustomerId(ctx);
  const tags = input.verb === 'remove' ? [...new Set(input.tags)] : normalizeTags(input.tags);
  const { set, changes, tooLong } = tagVerbSql(devices.tags, input.verb, tags);
  const where = and(batchTargets(ctx, customerId, input), changes)!;

  return withTransaction(ctx.db, async (tx) => {
    if (input.verb === 'add' && (await anyDeviceMatches(tx, and(where, tooLong)!))) {
      throw new ValidationError('tag.error.invalid', `A device's tags would exceed ${maxTagsTotalLength} characters in total`, {
        maxLength: maxTagsTotalLength,
      });
    }
    const ids = await updateTargetDevices(tx, set, where);
    if (input.verb !== 'remove') await registerTags(tx, customerId, 'DEVICE', tags);
    const updated = ids.length;
    await auditChange(tx, ctx, {
      entityType: 'device',
      customerId,
      action: `${input.verb}Tags`,
      message: `Tags ${{ add: 'added to', set: 'set on', remove: 'removed from' }[input.verb]} ${updated} devices: ${tags.join(', ')}`,
      changes: { search: input.search ?? null, applyOn: input.applyOn ?? 'DEVICE', tags, updated },
    });
    // Tags decide which tag-conditioned campaigns target a screen: its manifest may change.
    await announceDeviceChange(tx, { customerId, deviceIds: ids, kind: 'settings' });

    return { updated };
  });
}

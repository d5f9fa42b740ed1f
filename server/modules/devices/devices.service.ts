import { and, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { auditChange, auditOf } from '@/server/modules/audit-log';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { quickFilterCondition } from '@/server/modules/quick-filters';
import { readOnlyExpression, teamAccessCondition, teamListQuery, type TeamReadInput } from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import { announceDeviceChange } from './device-changes';
import { DEVICE_DEFAULT_SELECT, DEVICE_SINGLE_SELECT, deviceResource } from './devices.resource';
import type { Device, DeviceUpdate } from './devices.schemas';
import { devices, type DeviceRow } from './devices.table';
import {
  deleteDevice,
  findDeviceForWrite,
  findDeviceGroupForWrite,
  findDevicesForMove,
  moveDevicesTo,
  updateDevice,
} from './devices.queries';

const auditDevice = auditOf('device', (row: Pick<DeviceRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId ?? undefined,
}));

export function deviceAccess(ctx: { actor: Actor }): SQL | undefined {
  return teamAccessCondition(ctx, 'device', devices.id);
}

/**
 * A claimed device the caller changes: 404 when it is not in the scope (an unclaimed device belongs to no
 * tenant and is changed only by claiming it) or not visible to the caller's teams; 403
 * `team.error.readOnly` through read-only teams. Row-locked until the transaction ends.
 */
async function writableDevice(tx: Executor, ctx: ServiceContext, id: string): Promise<DeviceRow & { customerId: number }> {
  const found = await findDeviceForWrite(tx, {
    where: and(uuidEquals(devices.id, id), sql`${devices.customerId} is not null`, scopeCondition(ctx.scope, devices.customerId)),
    visible: deviceAccess(ctx),
    readOnly: readOnlyExpression(ctx, 'device', devices.id),
  });
  if (!found || !found.visible) throw new NotFoundError('device', id);
  if (found.readOnly)
    throw new ForbiddenError('Your teams give read-only access to this device', 'team.error.readOnly', { resourceType: 'device', id });

  return found.row as DeviceRow & { customerId: number };
}

type ListDevicesInput = ListInput & TeamReadInput & { quickFilterId?: string };

/** GET /api/v2/device: the scope's devices (ADMIN with `customerId=null`: the unclaimed ones), paged in SQL. */
export async function listDevices(ctx: ServiceContext, input: ListDevicesInput) {
  const { quickFilterId, ...rest } = input;
  const team = teamListQuery(ctx, 'device', devices.id, rest);
  const quick = quickFilterId ? await quickFilterCondition(ctx.db, ctx, quickFilterId, 'DEVICE') : undefined;
  const { sort, ...query } = team.query;

  return findPage<Device>(ctx.db, {
    resource: deviceResource,
    scope: ctx.scope,
    where: [team.where, quick],
    extraColumns: team.extraColumns,
    defaultSelect: DEVICE_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
}

/** One device as the caller sees it (404 when invisible). */
export async function readDevice(db: Executor, ctx: Pick<ServiceContext, 'actor' | 'scope'>, id: string, select?: string): Promise<Device> {
  const page = await findPage<Device>(db, {
    resource: deviceResource,
    scope: ctx.scope,
    where: [uuidEquals(devices.id, id), deviceAccess(ctx)],
    extraColumns: { readOnly: readOnlyExpression(ctx, 'device', devices.id) },
    select,
    defaultSelect: DEVICE_SINGLE_SELECT,
    size: '1',
  });
  const item = page.content[0];
  if (!item) throw new NotFoundError('device', id);

  return item;
}

export function getDevice(ctx: ServiceContext, id: string, select?: string) {
  return readDevice(ctx.db, ctx, id, select);
}

/** PUT /api/device/{id} (TECHNICIAN): name, comment, time zone. */
export async function updateDeviceFields(ctx: ServiceContext, id: string, input: DeviceUpdate): Promise<Device> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableDevice(tx, ctx, id);
    const changes = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.comment === undefined ? {} : { comment: input.comment }),
      ...(input.timeZone === undefined ? {} : { timeZone: input.timeZone }),
    };
    if (Object.keys(changes).length > 0) {
      await updateDevice(tx, row.customerId, row.id, changes);
      const diff = Object.fromEntries(
        Object.entries(changes)
          .filter(([key, to]) => row[key as keyof typeof changes] !== to)
          .map(([key, to]) => [key, { from: row[key as keyof typeof changes] ?? null, to }]),
      );
      await auditDevice(tx, ctx, { ...row, name: input.name ?? row.name }, 'update', `Device '${input.name ?? row.name}' updated`, diff);
      await announceDeviceChange(tx, { customerId: row.customerId, deviceIds: [row.id], kind: 'settings' });
    }

    return readDevice(tx, ctx, row.id);
  });
}

/** DELETE /api/device/{id} (TECHNICIAN): the device, its secret and every token of it stop at once. */
export async function deleteDeviceById(ctx: ServiceContext, id: string): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableDevice(tx, ctx, id);
    await deleteDevice(tx, row.customerId, row.id);
    await auditDevice(tx, ctx, row, 'delete', `Device '${row.name}' deleted`);
    await announceDeviceChange(tx, { customerId: row.customerId, deviceIds: [row.id], kind: 'deleted' });
  });
}

/**
 * POST /api/v2/device/move (TECHNICIAN): the devices into one folder of their customer, in one statement.
 * Every id must be a device the caller may change in that customer (404 naming the first that is not).
 */
export async function moveDevices(ctx: ServiceContext, input: { deviceIds: string[]; targetGroupId: string }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const folder = await findDeviceGroupForWrite(tx, {
      where: and(uuidEquals(deviceGroups.id, input.targetGroupId), scopeCondition(ctx.scope, deviceGroups.customerId)),
      visible: teamAccessCondition(ctx, 'deviceGroup', deviceGroups.id),
      readOnly: readOnlyExpression(ctx, 'deviceGroup', deviceGroups.id),
    });
    if (!folder || !folder.visible) throw new NotFoundError('deviceGroup', input.targetGroupId);
    if (folder.readOnly)
      throw new ForbiddenError('Your teams give read-only access to this device folder', 'team.error.readOnly', {
        resourceType: 'deviceGroup',
        id: folder.id,
      });
    const ids = [...new Set(input.deviceIds)];
    const writable = and(deviceAccess(ctx), sql`not ${readOnlyExpression(ctx, 'device', devices.id)}`);
    const found = await findDevicesForMove(tx, folder.customerId, ids, writable);
    const missing = ids.find((id) => !found.some((d) => d.id === id));
    if (missing) throw new NotFoundError('device', missing);
    await moveDevicesTo(tx, folder.customerId, ids, folder);
    await auditChange(tx, ctx, {
      entityType: 'device',
      customerId: folder.customerId,
      action: 'move',
      message: `${ids.length === 1 ? `Device '${found[0]!.name}'` : `${ids.length} devices`} moved to '${folder.name}'`,
      changes: { deviceIds: ids, targetGroupId: folder.id },
    });
    await announceDeviceChange(tx, { customerId: folder.customerId, deviceIds: ids, kind: 'settings' });
  });
}

/** The tenant a batch over devices acts on: `customerId` names exactly one (spec 1: batches never span tenants). */
export function batchCustomerId(ctx: Pick<ServiceContext<Actor>, 'scope'>): number {
  if (ctx.scope.kind !== 'customer')
    throw new ValidationError('request.error.customerIdRequired', 'Name the one customer whose devices this batch acts on', {
      parameter: 'customerId',
    });

  return ctx.scope.customerId;
}

import { v7 as uuidv7 } from 'uuid';
import { claimAttempt } from '@/server/auth/failure-limit';
import { hashToken, newOpaqueToken } from '@/server/auth/opaque-token';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, TooManyRequestsError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import type { Device } from '@/server/modules/devices/devices.schemas';
import { prepareLicence, readDevice } from '@/server/modules/devices';
import { notifyDevices } from './device-push';
import * as q from './display.queries';
import type { AssignToCustomer } from './display.schemas';

/**
 * Wrong claims allowed per user and per tenant (spec 4 §1): ten in 15 minutes, then every claim of that
 * user or tenant, right code or wrong, answers 429 until the window passes.
 */
const CLAIM_POLICY = { limit: 10, windowSeconds: 15 * 60 } as const;

type Folder = NonNullable<Awaited<ReturnType<typeof q.findRootDeviceGroup>>>;

/**
 * POST /api/v2/device/assignToCustomer (spec 3, spec 4 §1). Claims the unassigned device showing
 * `activationCode`, or the newest unassigned device registered with `serial`; with a serial no device has
 * and `createDeviceIfSerialNotFound`, pre-registers an assigned device that has never connected (the first
 * player registering with that serial takes it over). The device joins the customer's root device folder.
 *
 * Every claim takes a slot of the caller's, its own tenant's and the target tenant's failure windows
 * before anything is looked up (server/auth/failure-limit.ts); a wrong code or serial keeps the slots
 * (that is the counted failure), anything else gives them back. So a 429 answers right and wrong codes
 * alike, and parallel guesses cannot overrun the limit.
 */
export async function assignToCustomer(ctx: ServiceContext, body: AssignToCustomer): Promise<Device> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const subjects = [...new Set([`claim.user:${ctx.actor.userId}`, `claim.tenant:${customerId}`, `claim.tenant:${ctx.actor.customerId}`])];
  const claim = await claimAttempt(ctx.db, ctx.config, subjects, CLAIM_POLICY);
  if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many failed device claims; try again later');
  let outcome: { device: q.DeviceRow; folder: Folder } | 'notFound';
  try {
    outcome = await withTransaction(ctx.db, async (tx) => {
      const folder = await q.findRootDeviceGroup(tx, customerId);
      if (!folder) throw new NotFoundError('deviceGroup');
      // The licence's lock (its order, or the customer's free licences) before the device's row, as updateLicense takes them.
      const prepared = await prepareLicence(tx, customerId, body);
      const licence = {
        name: body.deviceName,
        licenseStatus: body.licenseStatus,
        licenseType: prepared.columns.licenseType ?? null,
        licenseOrderId: prepared.columns.licenseOrderId ?? null,
        timeZone: body.timeZone,
      };
      const placement = { customerId, deviceGroupId: folder.id, groupPath: folder.path };
      const found =
        body.activationCode !== undefined
          ? await q.lockUnassignedByCode(tx, body.activationCode)
          : await q.lockUnassignedBySerial(tx, body.serial!);
      if (found) {
        const device = await q.updateDevice(tx, found.id, {
          ...placement,
          ...licence,
          activationCode: null,
          activationCodeExpiresAt: null,
        });
        await prepared.verify();
        await auditChange(tx, ctx, {
          action: 'assignToCustomer',
          entityType: 'device',
          entityId: device.id,
          entityName: device.name,
          customerId,
          device: { id: device.id, name: device.name },
          message: `Device '${device.name}' claimed ${body.activationCode !== undefined ? 'with its activation code' : 'by its serial'}`,
          changes: { ...licence, deviceGroupId: folder.id, serial: device.serial },
        });
        // A connected player hears at once (at commit) that it belongs to a tenant now; otherwise its next status call tells it.
        await notifyDevices(tx, 'assigned', [device.id]);

        return { device, folder };
      }
      if (body.serial === undefined || !body.createDeviceIfSerialNotFound) return 'notFound';
      await q.lockSerial(tx, body.serial);
      if (await q.preRegisteredSerialExists(tx, body.serial)) {
        throw new ConflictError(
          'device.error.serialPreRegistered',
          'A device with this serial is already pre-registered and waits for its player',
        );
      }
      const device = await q.insertDevice(tx, {
        id: uuidv7(),
        ...placement,
        ...licence,
        serial: body.serial,
        // Nobody knows this secret: the player that takes the device over gets its own.
        secretHash: hashToken(newOpaqueToken()),
        everConnected: false,
      });
      await prepared.verify();
      await auditChange(tx, ctx, {
        action: 'create',
        entityType: 'device',
        entityId: device.id,
        entityName: device.name,
        customerId,
        device: { id: device.id, name: device.name },
        message: `Device '${device.name}' pre-registered by its serial`,
        changes: { ...licence, deviceGroupId: folder.id, serial: body.serial },
      });

      return { device, folder };
    });
  } catch (err) {
    await claim.attempt.release(ctx.db);
    throw err;
  }
  if (outcome === 'notFound') throw new NotFoundError('device');
  await claim.attempt.release(ctx.db);

  // The device as the devices API reads it (the same fields and computed values as GET /api/device/{id}).
  return readDevice(ctx.db, ctx, outcome.device.id);
}

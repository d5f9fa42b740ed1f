import type { Executor } from '@/server/db/client';
import { ConflictError } from '@/server/errors';
import * as q from './licences.queries';
import type { LicenseType } from './licences.schemas';

/*
 * Spec 5 §6: a device is LICENSED only by a free licence of an approved order of its customer, FREE only while the
 * customer's `freeLicenses` last. Whoever gives devices a licence (the claim, `updateLicense`) does it in three steps
 * inside one transaction: lock (the order, or the customer for FREE), write the devices, check the count. Every
 * writer takes the same lock before writing, so the check, a statement of its own, sees every other writer's
 * committed devices: under READ COMMITTED a statement that waited for a lock still reads with the snapshot it took
 * before waiting, which is why the lock and the count cannot be one statement. 50 parallel claims against 10 free
 * licences: 10 succeed (server/modules/devices/device-licences.api.test.ts).
 */

const NO_FREE_LICENSE = 'license.error.noFreeLicense';

/**
 * Locks the customer's approved order `orderId` until the transaction ends and answers its licence type. A missing
 * order, another customer's and an unapproved one all answer 409 `license.error.noFreeLicense`, as a full one does:
 * none has a licence to give.
 */
export async function lockOrderForLicensing(tx: Executor, input: { customerId: number; orderId: number }): Promise<LicenseType> {
  const order = await q.lockApprovedOrder(tx, input);
  if (!order?.licenseType) {
    throw new ConflictError(NO_FREE_LICENSE, `Licence order ${input.orderId} is not an approved licence order of this customer`, {
      parameter: 'licenseOrderId',
    });
  }

  return order.licenseType;
}

/** After the devices were written: 409 when more devices hold a licence of the order than it grants (the transaction rolls back). */
export async function assertOrderNotOversold(tx: Executor, orderId: number): Promise<void> {
  const row = await q.orderLicenceUse(tx, orderId);
  if (row && row.inUse > row.granted) {
    throw new ConflictError(
      NO_FREE_LICENSE,
      `Licence order ${orderId} grants ${row.granted} licences; ${row.inUse - row.granted} more devices than that would hold one`,
      { parameter: 'licenseOrderId' },
    );
  }
}

/** Locks the customer's row for a change of its FREE devices and answers its `freeLicenses`. */
export function lockFreeLicences(tx: Executor, customerId: number): Promise<number> {
  return q.lockCustomerFreeLicences(tx, customerId);
}
/** After the devices were written: 409 when the customer has more FREE devices (`freeDevices`, counted by the caller) than `freeLicenses`. */
export function assertFreeLicencesNotOverdrawn(input: { freeLicenses: number; freeDevices: number }): void {
  if (input.freeDevices > input.freeLicenses) {
    throw new ConflictError(
      NO_FREE_LICENSE,
      input.freeLicenses === 0
        ? 'This customer has no free licences'
        : `This customer has ${input.freeLicenses} free licences; ${input.freeDevices - input.freeLicenses} more devices than that would use one`,
      { parameter: 'licenseStatus' },
    );
  }
}

import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { assertFreeLicencesNotOverdrawn, assertOrderNotOversold, lockFreeLicences, lockOrderForLicensing } from '@/server/modules/licences';
import type { licenseStatuses, licenseTypes } from './devices.schemas';
import { countFreeLicenceDevices } from './devices.queries';
import { devices } from './devices.table';

type LicenseStatus = (typeof licenseStatuses)[number];
type LicenseType = (typeof licenseTypes)[number];

/** A licence change as a request states it (the claim's body, `updateLicense`'s parameters): absent = unchanged. */
export type LicenceRequest = { licenseStatus?: LicenseStatus; licenseType?: LicenseType; licenseOrderId?: number };

/**
 * What a licence change writes: each device column to set (absent: unchanged, null: cleared), except
 * `licenseTypeUnlessLicensed`, a type for devices that are not LICENSED (a LICENSED device's type is its order's).
 */
type LicenceColumns = {
  licenseStatus?: LicenseStatus;
  licenseType?: LicenseType | null;
  licenseOrderId?: number | null;
  licenseTypeUnlessLicensed?: LicenseType;
};

/** A licence change ready to write: its columns, and the check to run after the devices were written (same transaction). */
export type PreparedLicence = { columns: LicenceColumns; verify: () => Promise<void> };

/**
 * Checks a licence change of the customer's devices and takes the lock its check needs (spec 5 §6,
 * server/modules/licences/license-enforcement.ts): an order (LICENSED, also when only `licenseOrderId` is named)
 * gives the devices its licence type; FREE needs its type and holds no order; UN_LICENSED clears order and type;
 * TRIAL holds no order. After writing, `verify` refuses with 409 `license.error.noFreeLicense` what overdraws the
 * order or the customer's free licences.
 */
export async function prepareLicence(tx: Executor, customerId: number, request: LicenceRequest): Promise<PreparedLicence> {
  const { licenseStatus, licenseType, licenseOrderId } = request;
  if (licenseStatus === undefined && licenseType === undefined && licenseOrderId === undefined) {
    throw new ValidationError(INVALID_COMBINATION, 'Name the licence status, type or order to set', { parameter: 'licenseStatus' });
  }
  if (licenseStatus !== undefined && licenseStatus !== 'LICENSED' && licenseOrderId !== undefined) {
    throw new ValidationError(INVALID_COMBINATION, 'licenseOrderId goes only with licenseStatus LICENSED', { parameter: 'licenseOrderId' });
  }
  const unchecked = async () => {};
  if (licenseStatus === 'LICENSED' || licenseOrderId !== undefined) {
    if (licenseOrderId === undefined) {
      throw new ValidationError(INVALID_COMBINATION, 'A LICENSED device needs its licenseOrderId', { parameter: 'licenseOrderId' });
    }
    const orderType = await lockOrderForLicensing(tx, { customerId, orderId: licenseOrderId });
    if (licenseType !== undefined && licenseType !== orderType) {
      throw new ValidationError(INVALID_COMBINATION, `Licence order ${licenseOrderId} grants ${orderType} licences, not ${licenseType}`, {
        parameter: 'licenseType',
      });
    }

    return {
      columns: { licenseStatus: 'LICENSED', licenseType: orderType, licenseOrderId },
      verify: () => assertOrderNotOversold(tx, licenseOrderId),
    };
  }
  if (licenseStatus === 'FREE') {
    if (licenseType === undefined) {
      throw new ValidationError(INVALID_COMBINATION, 'A FREE licence needs its licenseType', { parameter: 'licenseType' });
    }
    const freeLicenses = await lockFreeLicences(tx, customerId);

    return {
      columns: { licenseStatus, licenseType, licenseOrderId: null },
      verify: async () => assertFreeLicencesNotOverdrawn({ freeLicenses, freeDevices: await countFreeLicenceDevices(tx, customerId) }),
    };
  }
  if (licenseStatus === 'UN_LICENSED') return { columns: { licenseStatus, licenseType: null, licenseOrderId: null }, verify: unchecked };
  if (licenseStatus === 'TRIAL') {
    return { columns: { licenseStatus, licenseOrderId: null, ...(licenseType !== undefined && { licenseType }) }, verify: unchecked };
  }

  // Only a type: it changes the devices that hold no order's licence.
  return { columns: { licenseTypeUnlessLicensed: licenseType }, verify: unchecked };
}

/** The device columns of a licence change, by SQL column name, for an UPDATE of many devices (`updateLicense`). */
export function licenceColumnValues(columns: LicenceColumns): Record<string, SQL> {
  const { licenseStatus, licenseType, licenseOrderId, licenseTypeUnlessLicensed } = columns;

  return {
    ...(licenseStatus !== undefined && { license_status: sql`${licenseStatus}` }),
    ...(licenseType !== undefined && { license_type: sql`${licenseType}` }),
    ...(licenseOrderId !== undefined && { license_order_id: sql`${licenseOrderId}` }),
    ...(licenseTypeUnlessLicensed !== undefined && {
      license_type: sql`case when ${devices.licenseStatus} = 'LICENSED' then ${devices.licenseType} else ${licenseTypeUnlessLicensed} end`,
    }),
  };
}

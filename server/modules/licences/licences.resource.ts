import { eq, sql } from 'drizzle-orm';
import { users } from '@/server/modules/users/users.table';
import { defineResource, relation } from '@/server/query/resource';
import { customers } from '@/server/tenant/customers.table';
import { assignedCountSql } from './license-assignments';
import { licensePayTypes, licenseTypes, recurrenceTypes } from './licences.schemas';
import { licenseOrders, licensePackages } from './licences.table';

/** What reads of an order answer without `select`: the primitives, the embedded objects and the assigned count. */
export const LICENSE_ORDER_DEFAULT_SELECT = '*,recurrence,customer,licensePackage,approvedByUser,soldByUser,assignedDeviceCount';
export const LICENSE_PACKAGE_DEFAULT_SELECT = '*,recurrence';

/** A recurrence `{recurrenceType, frequency}` built from the row's own two columns. */
function recurrenceResource<T extends typeof licenseOrders | typeof licensePackages>(name: string, table: T) {
  return defineResource({
    name,
    table,
    fields: (r) => ({
      recurrenceType: { kind: 'scalar', type: 'enum', enumValues: recurrenceTypes, sql: r.recurrenceType },
      frequency: { kind: 'scalar', type: 'integer', sql: r.recurrenceFrequency },
    }),
  });
}

const orderRecurrenceResource = recurrenceResource('recurrence', licenseOrders);
const packageRecurrenceResource = recurrenceResource('recurrence', licensePackages);

/** Searchable and selectable fields of a licence package (spec 5 §6). Global: no tenant. */
export const licensePackageResource = defineResource({
  name: 'licensePackage',
  table: licensePackages,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    licenseType: { kind: 'scalar', type: 'enum', enumValues: licenseTypes, sql: t.licenseType },
    licensePayType: { kind: 'scalar', type: 'enum', enumValues: licensePayTypes, sql: t.licensePayType },
    recurrence: relation.one(packageRecurrenceResource, {
      on: (target) => eq(target.id, t.id),
      foreignKey: sql`case when ${t.recurrenceType} is not null then ${t.id} end`,
      sameRow: sql`(${t.recurrenceType} is not null)`,
    }),
    pricePerDevice: { kind: 'scalar', type: 'number', sql: t.pricePerDevice },
    currency: { kind: 'scalar', type: 'string', sql: t.currency },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
  }),
});

const customerRefResource = defineResource({
  name: 'customer',
  table: customers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

const packageRefResource = defineResource({
  name: 'licensePackage',
  table: licensePackages,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    licenseType: { kind: 'scalar', type: 'enum', enumValues: licenseTypes, sql: t.licenseType },
    licensePayType: { kind: 'scalar', type: 'enum', enumValues: licensePayTypes, sql: t.licensePayType },
    pricePerDevice: { kind: 'scalar', type: 'number', sql: t.pricePerDevice },
    currency: { kind: 'scalar', type: 'string', sql: t.currency },
  }),
});

const userRefResource = defineResource({
  name: 'user',
  table: users,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    email: { kind: 'scalar', type: 'string', sql: t.email },
  }),
});

/**
 * Searchable and selectable fields of a licence order (spec 3 "License order"). `assignedDeviceCount` is one
 * correlated count per source of assignments (an index probe on `device.license_order_id`), in the same statement.
 */
export const licenseOrderResource = defineResource({
  name: 'licenseOrder',
  table: licenseOrders,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    customer: relation.one(customerRefResource, { on: (target) => eq(target.id, t.customerId), foreignKey: t.customerId }),
    orderDate: { kind: 'scalar', type: 'datetime', sql: t.orderDate },
    createDate: { kind: 'scalar', type: 'datetime', sql: t.createDate },
    deviceLicenseCount: { kind: 'scalar', type: 'integer', sql: t.deviceLicenseCount },
    pricePerDevice: { kind: 'scalar', type: 'number', sql: t.pricePerDevice },
    currency: { kind: 'scalar', type: 'string', sql: t.currency },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    poNumber: { kind: 'scalar', type: 'string', sql: t.poNumber },
    approved: { kind: 'scalar', type: 'boolean', sql: t.approved },
    approveDate: { kind: 'scalar', type: 'datetime', sql: t.approveDate },
    invoiceStartDate: { kind: 'scalar', type: 'datetime', sql: t.invoiceStartDate },
    licenseType: { kind: 'scalar', type: 'enum', enumValues: licenseTypes, sql: t.licenseType },
    licensePayType: { kind: 'scalar', type: 'enum', enumValues: licensePayTypes, sql: t.licensePayType },
    recurrence: relation.one(orderRecurrenceResource, {
      on: (target) => eq(target.id, t.id),
      foreignKey: sql`case when ${t.recurrenceType} is not null then ${t.id} end`,
      sameRow: sql`(${t.recurrenceType} is not null)`,
    }),
    managedInInvoiceSystem: { kind: 'scalar', type: 'boolean', sql: t.managedInInvoiceSystem },
    invoiceSystemId: { kind: 'scalar', type: 'string', sql: t.invoiceSystemId },
    licensePackageId: { kind: 'scalar', type: 'integer', sql: t.licensePackageId },
    licensePackage: relation.one(packageRefResource, { on: (target) => eq(target.id, t.licensePackageId), foreignKey: t.licensePackageId }),
    approvedByUser: relation.one(userRefResource, { on: (target) => eq(target.id, t.approvedByUserId), foreignKey: t.approvedByUserId }),
    soldByUser: relation.one(userRefResource, { on: (target) => eq(target.id, t.soldByUserId), foreignKey: t.soldByUserId }),
    assignedDeviceCount: { kind: 'scalar', type: 'integer', selectOnly: true, sql: assignedCountSql(t.id) },
  }),
});

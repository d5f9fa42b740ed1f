import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '@/server/modules/users/users.table';
import { customers } from '@/server/tenant/customers.table';
import { licensePayTypes, licenseTypes, recurrenceTypes } from './licences.schemas';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Prices are exact: numeric(14,4), read as text and sent as a JSON number, never summed in JavaScript (invoices sum
 * them in SQL). The recurrence is two columns (not a JSON object) so the invoice formula can use them in SQL.
 */
const price = (name: string) => numeric(name, { precision: 14, scale: 4 });

/** A licence package (spec 3 "License order", spec 5 §6): an ADMIN's template of tier and pricing, global. */
export const licensePackages = pgTable(
  'license_package',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    licenseType: text('license_type', { enum: licenseTypes }).notNull(),
    licensePayType: text('license_pay_type', { enum: licensePayTypes }).notNull(),
    recurrenceType: text('recurrence_type', { enum: recurrenceTypes }),
    recurrenceFrequency: integer('recurrence_frequency'),
    pricePerDevice: price('price_per_device'),
    currency: text('currency'),
    createdDate: at('created_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('license_package_name_key').on(t.name),
    index('license_package_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export type LicensePackageRow = typeof licensePackages.$inferSelect;

/**
 * A licence order (spec 3 "License order"): `deviceLicenseCount` licences of a type for a customer, usable once
 * approved. Fields taken from a package are copied onto the order when it is made, so a later change of the package
 * changes no order (nor its invoices); the package reference stays for display and is cleared when it is deleted.
 * Devices name the order by `device.license_order_id` (no foreign key: that column predates this table).
 */
export const licenseOrders = pgTable(
  'license_order',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    orderDate: at('order_date').notNull(),
    createDate: at('create_date').notNull().defaultNow(),
    deviceLicenseCount: integer('device_license_count').notNull(),
    pricePerDevice: price('price_per_device'),
    currency: text('currency'),
    comment: text('comment'),
    poNumber: text('po_number'),
    approved: boolean('approved').notNull().default(false),
    approveDate: at('approve_date'),
    invoiceStartDate: at('invoice_start_date'),
    licenseType: text('license_type', { enum: licenseTypes }),
    licensePayType: text('license_pay_type', { enum: licensePayTypes }),
    recurrenceType: text('recurrence_type', { enum: recurrenceTypes }),
    recurrenceFrequency: integer('recurrence_frequency'),
    managedInInvoiceSystem: boolean('managed_in_invoice_system').notNull().default(false),
    invoiceSystemId: text('invoice_system_id'),
    licensePackageId: bigint('license_package_id', { mode: 'number' }).references(() => licensePackages.id, { onDelete: 'set null' }),
    approvedByUserId: uuid('approved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    soldByUserId: uuid('sold_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('license_order_customer_idx').on(t.customerId, t.approved, t.id),
    // The ADMIN's "awaiting approval" count over every tenant.
    index('license_order_unapproved_idx')
      .on(t.id)
      .where(sql`not ${t.approved}`),
    check('license_order_count_positive', sql`${t.deviceLicenseCount} > 0`),
  ],
);

export type LicenseOrderRow = typeof licenseOrders.$inferSelect;

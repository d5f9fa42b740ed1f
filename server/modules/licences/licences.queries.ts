import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { users } from '@/server/modules/users/users.table';
import { customers } from '@/server/tenant/customers.table';
import { execRows } from '@/server/db/sql';
import { assignedCountSql, connectedCountSql, customerAssignedCountSql, statusCountsSql } from './license-assignments';
import { licenseOrders, licensePackages, type LicenseOrderRow, type LicensePackageRow } from './licences.table';

export type LicenseOrderValues = typeof licenseOrders.$inferInsert;
export type LicensePackageValues = typeof licensePackages.$inferInsert;

// ---------------------------------------------------------------------------------------------------------------
// Packages (global)

export async function findPackage(db: Executor, id: number): Promise<LicensePackageRow | undefined> {
  const [row] = await db.select().from(licensePackages).where(eq(licensePackages.id, id)).limit(1);

  return row;
}

export async function lockPackage(db: Executor, id: number): Promise<LicensePackageRow | undefined> {
  const [row] = await db.select().from(licensePackages).where(eq(licensePackages.id, id)).limit(1).for('update');

  return row;
}

export async function insertPackage(db: Executor, values: LicensePackageValues): Promise<LicensePackageRow> {
  const [row] = await db.insert(licensePackages).values(values).returning();

  return row!;
}

export async function updatePackage(db: Executor, id: number, values: Partial<LicensePackageValues>): Promise<void> {
  await db.update(licensePackages).set(values).where(eq(licensePackages.id, id));
}

export async function deletePackage(db: Executor, id: number): Promise<void> {
  await db.delete(licensePackages).where(eq(licensePackages.id, id));
}

// ---------------------------------------------------------------------------------------------------------------
// Orders

/** The order `id` within the scope, locked until commit: writes to one order serialise (and with licensing devices). */
export async function lockOrder(db: Executor, scope: TenantScope, id: number): Promise<LicenseOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(licenseOrders)
    .where(and(eq(licenseOrders.id, id), scopeCondition(scope, licenseOrders.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function insertOrder(db: Executor, values: LicenseOrderValues): Promise<LicenseOrderRow> {
  const [row] = await db.insert(licenseOrders).values(values).returning();

  return row!;
}

export async function updateOrder(db: Executor, row: LicenseOrderRow, values: Partial<LicenseOrderValues>): Promise<LicenseOrderRow> {
  const [updated] = await db
    .update(licenseOrders)
    .set(values)
    .where(and(eq(licenseOrders.id, row.id), eq(licenseOrders.customerId, row.customerId)))
    .returning();

  return updated!;
}

/** The licences of the order in use (devices naming it). */
export async function assignedCount(db: Executor, orderId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`${assignedCountSql(sql`${orderId}::bigint`)}` }).from(sql`(select 1) as one`);

  return Number(row?.n ?? 0);
}

export async function deleteOrder(db: Executor, row: LicenseOrderRow): Promise<void> {
  await db.delete(licenseOrders).where(and(eq(licenseOrders.id, row.id), eq(licenseOrders.customerId, row.customerId)));
}

/** Unapproved orders in the scope (the partial index license_order_unapproved_idx serves the global count). */
export async function countUnapproved(db: Executor, scope: TenantScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseOrders)
    .where(and(eq(licenseOrders.approved, false), scopeCondition(scope, licenseOrders.customerId)));

  return row?.n ?? 0;
}

/** Approved orders' licences of the customer whose id is the SQL `customerId` (the customer's `totalLicenses`). */
export const totalLicensesSql = (customerId: ReturnType<typeof sql>) =>
  sql`(select sum(${licenseOrders.deviceLicenseCount}) from ${licenseOrders} where ${licenseOrders.customerId} = ${customerId} and ${licenseOrders.approved})`;

const userEmailOf = (column: AnyPgColumn) => sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${column})`;

/** One batch of the CSV export: orders in the scope after `afterId`, by id, with their names and counts. */
export async function findCsvBatch(db: Executor, scope: TenantScope, afterId: number | undefined, limit: number) {
  return db
    .select({
      id: licenseOrders.id,
      customerId: licenseOrders.customerId,
      customerName: sql<string>`(select ${customers.name} from ${customers} where ${customers.id} = ${licenseOrders.customerId})`,
      orderDate: licenseOrders.orderDate,
      createDate: licenseOrders.createDate,
      deviceLicenseCount: licenseOrders.deviceLicenseCount,
      assignedDeviceCount: sql<number>`${assignedCountSql(licenseOrders.id)}`,
      licenseType: licenseOrders.licenseType,
      licensePayType: licenseOrders.licensePayType,
      recurrenceType: licenseOrders.recurrenceType,
      recurrenceFrequency: licenseOrders.recurrenceFrequency,
      // numeric as its exact text (drizzle reads numeric as a string): never through a float.
      pricePerDevice: licenseOrders.pricePerDevice,
      currency: licenseOrders.currency,
      approved: licenseOrders.approved,
      approveDate: licenseOrders.approveDate,
      approvedBy: userEmailOf(licenseOrders.approvedByUserId),
      soldBy: userEmailOf(licenseOrders.soldByUserId),
      licensePackage: sql<
        string | null
      >`(select ${licensePackages.name} from ${licensePackages} where ${licensePackages.id} = ${licenseOrders.licensePackageId})`,
      invoiceStartDate: licenseOrders.invoiceStartDate,
      managedInInvoiceSystem: licenseOrders.managedInInvoiceSystem,
      invoiceSystemId: licenseOrders.invoiceSystemId,
      poNumber: licenseOrders.poNumber,
      comment: licenseOrders.comment,
    })
    .from(licenseOrders)
    .where(and(scopeCondition(scope, licenseOrders.customerId), afterId === undefined ? undefined : gt(licenseOrders.id, afterId)))
    .orderBy(asc(licenseOrders.id))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------------------------
// Enforcement (license-enforcement.ts)

/**
 * The customer's approved order `orderId`, locked until the transaction ends (no key update: devices name orders
 * without a foreign key, so nothing waits on the key; the lock only puts the writers of its devices in a row).
 */
export async function lockApprovedOrder(db: Executor, input: { customerId: number; orderId: number }) {
  const [row] = await db
    .select({ licenseType: licenseOrders.licenseType })
    .from(licenseOrders)
    .where(and(eq(licenseOrders.id, input.orderId), eq(licenseOrders.customerId, input.customerId), eq(licenseOrders.approved, true)))
    .for('no key update');

  return row;
}

/** The licences the order grants and how many are in use now. */
export async function orderLicenceUse(db: Executor, orderId: number) {
  const [row] = await db
    .select({ granted: licenseOrders.deviceLicenseCount, inUse: assignedCountSql(licenseOrders.id).mapWith(Number) })
    .from(licenseOrders)
    .where(eq(licenseOrders.id, orderId));

  return row;
}

/** The customer's `freeLicenses`, its row locked until the transaction ends (no key update: rows naming it keep being written). */
export async function lockCustomerFreeLicences(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ freeLicenses: customers.freeLicenses })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('no key update');

  return row?.freeLicenses ?? 0;
}

export type LicenseDashboardRow = {
  browserSessionLimit: number;
  freeCount: number;
  activeBrowserSessionCount: number;
  statuses: Array<{ status: string | null; n: number }>;
  types: Array<{ type: string | null; ordered: number; assigned: number }>;
};

/**
 * The counts of the customer's licence dashboard in one statement: its approved orders by type (licences ordered,
 * and held by its devices: one probe of `device_license_order_idx` per order), its devices by licence status, its
 * connected devices, and the customer's limits. Undefined for a customer that does not exist.
 */
export async function findLicenseDashboard(db: Executor, customerId: number): Promise<LicenseDashboardRow | undefined> {
  const id = sql`${customerId}::bigint`;
  const o = licenseOrders;
  const rows = await execRows<LicenseDashboardRow>(
    db,
    sql`select ${customers.deviceSessionLimit} as "browserSessionLimit", ${customers.freeLicenses} as "freeCount",
        ${connectedCountSql(id)} as "activeBrowserSessionCount",
        (select coalesce(jsonb_agg(jsonb_build_object('status', s.status, 'n', s.n)), '[]'::jsonb) from (${statusCountsSql(id)}) as s) as statuses,
        (select coalesce(jsonb_agg(jsonb_build_object('type', t.type, 'ordered', t.ordered, 'assigned', t.assigned)), '[]'::jsonb) from (
          select a.type, sum(a.ordered)::int as ordered, sum(a.assigned)::int as assigned from (
            select ${o.licenseType} as type, ${o.deviceLicenseCount} as ordered, ${customerAssignedCountSql(o.id, o.customerId)} as assigned
            from ${o} where ${o.customerId} = ${id} and ${o.approved}
          ) as a group by a.type
        ) as t) as types
      from ${customers} where ${customers.id} = ${id}`,
  );

  return rows[0];
}

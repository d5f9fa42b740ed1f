import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * What holds a licence of an order: the devices module plugs its table in (devices name their order by
 * `license_order_id`), so this module names no module above it and the devices module may use the order table.
 */
export type LicenseAssignmentSource = {
  name: string;
  table: PgTable;
  orderIdColumn: AnyPgColumn;
};

export const licenseAssignments = definePlugPoint<LicenseAssignmentSource>('licenseAssignments', (s) => s.name);

/** The number of licences of the order whose id is the SQL `orderId` in use (correlated; one index probe per source). */
export function assignedCountSql(orderId: SQL | AnyPgColumn): SQL {
  return lazySql(() => {
    const sources = licenseAssignments.items();
    if (sources.length === 0) return sql`0`;
    const counts = sources.map((s) => sql`(select count(*) from ${s.table} where ${s.orderIdColumn} = ${orderId})`);

    return sql`(${sql.join(counts, sql` + `)})::int`;
  });
}

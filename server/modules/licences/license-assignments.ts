import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * What holds a licence of an order: the devices module plugs its table in (devices name their order by
 * `license_order_id`), so this module names no module above it and the devices module may use the order table.
 * The customer and status columns serve the customer's licence dashboard; `connectedCount` is the source's count
 * of the customer's holders connected right now (the dashboard's `activeBrowserSessionCount`; 0 without it).
 */
export type LicenseAssignmentSource = {
  name: string;
  table: PgTable;
  orderIdColumn: AnyPgColumn;
  customerIdColumn: AnyPgColumn;
  /** Spec 3 Device `licenseStatus` (UN_LICENSED, FREE, LICENSED, TRIAL). */
  licenseStatusColumn: AnyPgColumn;
  connectedCount?: (customerId: SQL) => SQL;
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

/**
 * The licences of the order `orderId` held by holders of the customer `customerId` (the dashboard's assigned
 * counts: a device moved to another customer keeps naming the order, but does not use this customer's licence).
 */
export function customerAssignedCountSql(orderId: SQL | AnyPgColumn, customerId: SQL | AnyPgColumn): SQL {
  return lazySql(() => {
    const sources = licenseAssignments.items();
    if (sources.length === 0) return sql`0`;
    const counts = sources.map(
      (s) => sql`(select count(*) from ${s.table} where ${s.orderIdColumn} = ${orderId} and ${s.customerIdColumn} = ${customerId})`,
    );

    return sql`(${sql.join(counts, sql` + `)})::int`;
  });
}

/** Rows `(status text, n int)`: the customer's holders by `licenseStatus`, over every source. */
export function statusCountsSql(customerId: SQL): SQL {
  return lazySql(() => {
    const sources = licenseAssignments.items();
    if (sources.length === 0) return sql`select null::text as status, 0::int as n where false`;
    const rows = sources.map(
      (s) =>
        sql`select ${s.licenseStatusColumn}::text as status, count(*)::int as n from ${s.table} where ${s.customerIdColumn} = ${customerId} group by 1`,
    );

    return sql`select status, sum(n)::int as n from (${sql.join(rows, sql` union all `)}) as by_source group by status`;
  });
}

/** The customer's holders connected right now (0 when no source counts connections). */
export function connectedCountSql(customerId: SQL): SQL {
  return lazySql(() => {
    const counts = licenseAssignments.items().flatMap((s) => (s.connectedCount ? [s.connectedCount(customerId)] : []));
    if (counts.length === 0) return sql`0`;

    return sql`(${sql.join(
      counts.map((c) => sql`(${c})`),
      sql` + `,
    )})::int`;
  });
}

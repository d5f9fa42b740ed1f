import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The one place where later modules contribute the customer's computed statistics of spec 3 "Customer"
 * whose data they own: devices give `activeLicenses` and `lastDeviceActivity`, license orders
 * `totalLicenses`, datasources `currentDatasourceStorageSize` (which `currentTotalCustomerStorageSize`
 * adds to the files' bytes). The customer resource names no module; with nothing registered a count is
 * 0 and `lastDeviceActivity` null.
 *
 * Register from a module's top level (imported by its routes), like the file reference kinds
 * (server/modules/files/file-reference-registry.ts). The expression is looked up when a statement is
 * rendered, not when the field map is built, so the order of registration and first request does not matter.
 */

export type CustomerStatistic = 'activeLicenses' | 'totalLicenses' | 'currentDatasourceStorageSize' | 'lastDeviceActivity';

/**
 * A scalar SQL expression for the customer whose id is the SQL `customerId` (correlated with the outer
 * row), e.g. `(select count(*) from device d where d.customer_id = ${customerId} and d.license_order_id is not null)`.
 * A count may answer null for "none" (read as 0).
 */
export type CustomerStatisticSql = (customerId: SQL) => SQL;

const contributions = new Map<CustomerStatistic, CustomerStatisticSql>();

/** Registers the expression of one statistic; answers the function that removes it again (tests). */
export function registerCustomerStatistic(statistic: CustomerStatistic, expression: CustomerStatisticSql): () => void {
  if (contributions.has(statistic)) throw new Error(`Customer statistic '${statistic}' registered twice`);
  contributions.set(statistic, expression);

  return () => {
    if (contributions.get(statistic) === expression) contributions.delete(statistic);
  };
}

const fallback: Record<CustomerStatistic, SQL> = {
  activeLicenses: sql`0`,
  totalLicenses: sql`0`,
  currentDatasourceStorageSize: sql`0`,
  lastDeviceActivity: sql`null::timestamptz`,
};

/** The statistic for the customer `customerId`: the registered expression, or its value when none is. */
export function customerStatisticSql(statistic: CustomerStatistic, customerId: SQL): SQL {
  // Drizzle renders an SQLWrapper by calling getSQL() (in parentheses) each time a statement is built.
  const current: SQLWrapper = {
    getSQL: () => {
      const expression = contributions.get(statistic);
      if (!expression) return fallback[statistic];

      return statistic === 'lastDeviceActivity' ? expression(customerId) : sql`coalesce(${expression(customerId)}, 0)`;
    },
  };

  return sql`${current}`;
}

import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * The one place where later modules contribute the customer's computed statistics of spec 3 "Customer"
 * whose data they own: devices give `activeLicenses` and `lastDeviceActivity`, license orders
 * `totalLicenses`, datasources `currentDatasourceStorageSize` (which `currentTotalCustomerStorageSize`
 * adds to the files' bytes). The customer resource names no module; with nothing registered a count is
 * 0 and `lastDeviceActivity` null.
 *
 * A module lists its expressions in its manifest (`customerStatistics`). The expression is looked up when
 * a statement is rendered, not when the field map is built, so installing after the field map is fine.
 */

export type CustomerStatistic = 'activeLicenses' | 'totalLicenses' | 'currentDatasourceStorageSize' | 'lastDeviceActivity';

/**
 * A scalar SQL expression for the customer whose id is the SQL `customerId` (correlated with the outer
 * row), e.g. `(select count(*) from device d where d.customer_id = ${customerId} and d.license_order_id is not null)`.
 * A count may answer null for "none" (read as 0).
 */
type CustomerStatisticSql = (customerId: SQL) => SQL;

export type CustomerStatisticContribution = { statistic: CustomerStatistic; sql: CustomerStatisticSql };

export const customerStatistics = definePlugPoint<CustomerStatisticContribution>('customerStatistics', (c) => c.statistic);

const fallback: Record<CustomerStatistic, SQL> = {
  activeLicenses: sql`0`,
  totalLicenses: sql`0`,
  currentDatasourceStorageSize: sql`0`,
  lastDeviceActivity: sql`null::timestamptz`,
};

/** The statistic for the customer `customerId`: the registered expression, or its value when none is. */
export function customerStatisticSql(statistic: CustomerStatistic, customerId: SQL): SQL {
  return lazySql(() => {
    const contribution = customerStatistics.get(statistic);
    if (!contribution) return fallback[statistic];

    return statistic === 'lastDeviceActivity' ? contribution.sql(customerId) : sql`coalesce(${contribution.sql(customerId)}, 0)`;
  });
}

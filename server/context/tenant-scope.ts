import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * The tenant selector `customerId` of spec 1, resolved once per request:
 * - `all`: ADMIN without customerId (or -1): global over all tenants;
 * - `network`: a network owner's OWNER without customerId: its own customer and its members;
 * - `customer`: exactly one tenant (everyone else, or an explicit allowed customerId);
 * - `unassigned`: ADMIN with `customerId=null`: rows of no tenant (registered devices not claimed yet).
 */
export type TenantScope =
  | { kind: 'all' }
  | { kind: 'network'; ownerId: number }
  | { kind: 'customer'; customerId: number; explicit: boolean }
  | { kind: 'unassigned' };

/**
 * Which customers exist and which belong to a network owner. The customers module owns that data and plugs this in
 * (its manifest), so the tenant scope names no module table.
 */
export type NetworkDirectory = {
  exists: (db: Executor, customerId: number) => Promise<boolean>;
  isMember: (db: Executor, ownerId: number, customerId: number) => Promise<boolean>;
  /** A subquery of the member customers' ids. */
  membersSql: (ownerId: number) => SQL;
};

export const networkDirectories = definePlugPoint<NetworkDirectory>('networkDirectory', () => 'networkDirectory');

export function networkDirectory(): NetworkDirectory {
  const directory = networkDirectories.items()[0];
  if (!directory) throw new Error('No network directory is installed (the customers module plugs it in)');

  return directory;
}

/** The scope of one tenant, for work on a row whose tenant is already known (a re-read, a signed URL's path). */
export function customerScope(customerId: number): TenantScope {
  return { kind: 'customer', customerId, explicit: true };
}

/** Every tenant: only where something other than the caller vouches for the row (a signed URL's token). */
export const allTenants: TenantScope = { kind: 'all' };

/** The SQL condition limiting `column` (a customer id column) to the scope; undefined = no limit. */
export function scopeCondition(scope: TenantScope, column: AnyPgColumn | SQL): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'unassigned':
      return sql`${column} is null`;
    case 'customer':
      return sql`${column} = ${scope.customerId}`;
    case 'network':
      // One array of the network's customers (the owner and its members, a subquery run once): the planner uses
      // it as an index condition (`customer_id = ANY($0)`, with the status in device_customer_status_idx), where
      // `= owner OR IN (members)` was a filter over every row of the table.
      return sql`${column} = any(array(${networkDirectory().membersSql(scope.ownerId)} union all select ${scope.ownerId}::bigint))`;
  }
}

import { inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';
import { ForbiddenError, ValidationError } from '@/server/errors';
import { definePlugPoint } from '@/server/plug-point';
import { homeCustomerOf, type Actor } from '@/server/context/actor';
import type { TenantScope } from '@/server/context/tenant-scope';

/**
 * Which customers belong to a network owner. The customers module owns that data and plugs this in
 * (its manifest), so the tenant scope names no module table.
 */
export type NetworkDirectory = {
  isMember: (db: Executor, ownerId: number, customerId: number) => Promise<boolean>;
  /** A subquery of the member customers' ids. */
  membersSql: (ownerId: number) => SQL;
};

export const networkDirectories = definePlugPoint<NetworkDirectory>('networkDirectory', () => 'networkDirectory');

function networkDirectory(): NetworkDirectory {
  const directory = networkDirectories.items()[0];
  if (!directory) throw new Error('No network directory is installed (the customers module plugs it in)');

  return directory;
}

export function parseCustomerIdParam(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d{1,18}$/.test(raw.trim())) {
    throw new ValidationError('request.error.invalid', `Invalid query value 'customerId': expected an integer, got '${raw}'`, { parameter: 'customerId' });
  }

  return Number(raw);
}

/**
 * The scope of one request. Users as spec 1 says (ADMIN everything or one tenant; a network owner's OWNER
 * its network or one member; everyone else their own tenant). Devices and API keys act in their own
 * customer only. The system (jobs) sees every tenant unless it names one.
 */
export async function resolveTenantScope(db: Executor, actor: Actor, customerId: number | undefined): Promise<TenantScope> {
  if (actor.kind === 'system' || (actor.kind === 'user' && actor.role === 'ADMIN')) {
    if (customerId === undefined || customerId === -1) return { kind: 'all' };

    return { kind: 'customer', customerId, explicit: true };
  }
  if (customerId === undefined || customerId === actor.customerId) {
    if (customerId === undefined && actsAsNetworkOwner(actor)) return { kind: 'network', ownerId: actor.customerId };

    return { kind: 'customer', customerId: actor.customerId, explicit: customerId !== undefined };
  }
  if (actsAsNetworkOwner(actor) && customerId > 0 && (await networkDirectory().isMember(db, actor.customerId, customerId))) {
    return { kind: 'customer', customerId, explicit: true };
  }
  throw new ForbiddenError('The selected customer is outside your scope', 'auth.error.tenantForbidden', { customerId });
}

/** Network-owner scope applies to the OWNER of a network-owner customer (docs/decisions.md); never to devices or keys. */
export function actsAsNetworkOwner(actor: Actor): boolean {
  return actor.kind === 'user' && actor.isNetworkOwner && actor.role === 'OWNER';
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
    case 'customer':
      return sql`${column} = ${scope.customerId}`;
    case 'network':
      return or(
        sql`${column} = ${scope.ownerId}`,
        inArray(column as AnyPgColumn, networkDirectory().membersSql(scope.ownerId)),
      );
  }
}

/** The one tenant a write acts on: the selected customer, or the caller's own (the system must name one). */
export function targetCustomerId(scope: TenantScope, actor: Actor): number {
  if (scope.kind === 'customer') return scope.customerId;
  const own = homeCustomerOf(actor);
  if (own === undefined) throw new ValidationError('request.error.customerIdRequired', 'Name the customer this write acts on', { parameter: 'customerId' });

  return own;
}

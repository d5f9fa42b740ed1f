import type { Executor } from '@/server/db/client';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { homeCustomerOf, type Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { networkDirectory, type TenantScope } from '@/server/context/tenant-scope';

/**
 * The scope of one request. Users as spec 1 says (ADMIN everything or one tenant; a network owner's OWNER
 * its network or one member; everyone else their own tenant). Devices and API keys act in their own
 * customer only. The system (jobs) sees every tenant unless it names one. An ADMIN naming a customer that does
 * not exist gets 404 `customer.error.notFound` on every tenant-scoped route (reads, and writes that would otherwise
 * fail on the missing row in their own ways); others only ever reach customers that exist.
 */
export async function resolveTenantScope(db: Executor, actor: Actor, customerId: number | null | undefined): Promise<TenantScope> {
  if (actor.kind === 'system' || (actor.kind === 'user' && actor.role === 'ADMIN')) {
    if (customerId === undefined || customerId === -1) return { kind: 'all' };
    if (customerId === null) return { kind: 'unassigned' };
    if (actor.kind === 'user' && !(await networkDirectory().exists(db, customerId))) throw new NotFoundError('customer', customerId);

    return { kind: 'customer', customerId, explicit: true };
  }
  if (customerId === null)
    throw new ForbiddenError('Only administrators see what belongs to no customer', 'auth.error.tenantForbidden', { customerId });
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

/** The one tenant a write acts on: the selected customer, or the caller's own (the system must name one). */
export function targetCustomerId(scope: TenantScope, actor: Actor): number {
  if (scope.kind === 'customer') return scope.customerId;
  const own = scope.kind === 'unassigned' ? undefined : homeCustomerOf(actor);
  if (own === undefined)
    throw new ValidationError('request.error.customerIdRequired', 'Name the customer this write acts on', { parameter: 'customerId' });

  return own;
}

/**
 * Id-addressed writes (`PUT/DELETE /api/file/{id}`, `/api/content/{id}`, …) take no `customerId`: they act
 * wherever the caller can see the item, i.e. in the scope the caller has without a selector (ADMIN: every tenant).
 */
export async function idAddressedContext(ctx: ServiceContext): Promise<ServiceContext> {
  return { ...ctx, scope: await resolveTenantScope(ctx.db, ctx.actor, undefined) };
}

/** A bulk change writes one audit entry, attributed to the customer when the call touched exactly one. */
export function bulkCustomerId(scope: TenantScope, perCustomer: readonly { customerId: number }[]): number | undefined {
  return perCustomer.length === 1 ? perCustomer[0]!.customerId : scope.kind === 'customer' ? scope.customerId : undefined;
}

/**
 * The tenant selector `customerId` of spec 1, resolved once per request:
 * - `all`: ADMIN without customerId (or -1): global over all tenants;
 * - `network`: a network owner's OWNER without customerId: its own customer and its members;
 * - `customer`: exactly one tenant (everyone else, or an explicit allowed customerId).
 */
export type TenantScope = { kind: 'all' } | { kind: 'network'; ownerId: number } | { kind: 'customer'; customerId: number; explicit: boolean };

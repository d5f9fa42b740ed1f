import { hasRole, roles, type Role } from '@/server/context/roles';

/** The roles a caller may give when creating or editing a user: ADMIN any, OWNER up to OWNER, others none. */
export function assignableRoles(caller: Role): Role[] {
  if (caller === 'ADMIN') return [...roles].reverse();
  if (caller === 'OWNER') return roles.filter((r) => r !== 'ADMIN').reverse();

  return [];
}

/** Creating, editing and deleting users: OWNER or ADMIN. */
export function canManageUsers(caller: Role): boolean {
  return hasRole(caller, 'OWNER');
}

/** An OWNER may not touch an ADMIN account. */
export function canManageUser(caller: Role, target: Role): boolean {
  return canManageUsers(caller) && (caller === 'ADMIN' || target !== 'ADMIN');
}

/** The audit log: OWNER or higher. */
export function canSeeAuditLog(caller: Role): boolean {
  return hasRole(caller, 'OWNER');
}

/** Customers: ADMIN, or the OWNER of a network owner (for its member customers). */
export function canManageCustomers(caller: Role, isNetworkOwner: boolean): boolean {
  return caller === 'ADMIN' || (caller === 'OWNER' && isNetworkOwner);
}

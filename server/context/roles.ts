/** The role hierarchy of spec 1, lowest first; a role may use everything an equal or lower role may. */
export const roles = ['DEVICE_USER', 'VIEWER', 'EDITOR', 'APPROVER', 'TECHNICIAN', 'OWNER', 'ADMIN'] as const;
export type Role = (typeof roles)[number];

const rank: Record<Role, number> = Object.fromEntries(roles.map((r, i) => [r, i])) as Record<Role, number>;

export function hasRole(actual: Role, minimum: Role): boolean {
  return rank[actual] >= rank[minimum];
}

/** The next role below `role`, or undefined for the lowest (used by the route-table security test). */
export function roleBelow(role: Role): Role | undefined {
  const i = rank[role];

  return i > 0 ? roles[i - 1] : undefined;
}

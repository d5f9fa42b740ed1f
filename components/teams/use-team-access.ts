'use client';

import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

/**
 * Who may do what on the teams pages. OWNER and ADMIN manage teams; an ADMIN acts on the tenant chosen
 * in the switcher and, with all tenants shown, only reads (a new team needs a tenant).
 */
export function useTeamAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant, customerId } = useTenant();
  const isManager = hasRole(me.role, 'OWNER');
  const needsTenant = canSwitch && !tenant;

  return { customerId, tenant, canView: hasRole(me.role, 'VIEWER'), isManager, needsTenant, canManage: isManager && !needsTenant };
}

'use client';

import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

/**
 * Who may do what with channels: VIEWER and above read, APPROVER and above create, change and delete
 * (spec 2 "Campaigns"). With all tenants shown (ADMIN, network owner) nothing is created: a channel needs a tenant.
 */
export function useChannelAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;

  return { canView: hasRole(me.role, 'VIEWER'), canEdit: hasRole(me.role, 'APPROVER') && !needsTenant, role: me.role };
}

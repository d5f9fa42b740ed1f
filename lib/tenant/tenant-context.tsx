'use client';

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { SessionUser } from '@/lib/auth/types';
import { serializeTenantCookie, type TenantSelection } from '@/lib/tenant/tenant-cookie';

type TenantContextValue = {
  /** Only ADMIN chooses a tenant; everyone else works in their own. */
  canSwitch: boolean;
  /** ADMIN: the chosen tenant, or null for all tenants. Others: their own tenant. */
  tenant: TenantSelection | null;
  /** The `customerId` to send with API calls; undefined means none (global for ADMIN, own tenant otherwise). */
  customerId: number | undefined;
  selectTenant: (tenant: TenantSelection | null) => void;
};

const TenantContext = createContext<TenantContextValue | null>(null);

export function TenantProvider({
  user,
  initialSelection,
  children,
}: {
  user: SessionUser;
  initialSelection: TenantSelection | null;
  children: ReactNode;
}) {
  const canSwitch = user.role === 'ADMIN';
  const [selection, setSelection] = useState<TenantSelection | null>(canSwitch ? initialSelection : null);

  const selectTenant = useCallback(
    (next: TenantSelection | null) => {
      if (!canSwitch) return;
      setSelection(next);
      document.cookie = serializeTenantCookie(next);
    },
    [canSwitch],
  );

  const value = useMemo<TenantContextValue>(() => {
    if (canSwitch) return { canSwitch, tenant: selection, customerId: selection?.id, selectTenant };
    const own = user.customerId === null ? null : { id: user.customerId, name: user.customerName ?? `Tenant ${user.customerId}` };

    return { canSwitch, tenant: own, customerId: undefined, selectTenant };
  }, [canSwitch, selection, selectTenant, user.customerId, user.customerName]);

  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export function useTenant(): TenantContextValue {
  const value = useContext(TenantContext);
  if (!value) throw new Error('useTenant must be used inside TenantProvider');

  return value;
}

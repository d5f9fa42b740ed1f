'use client';

import { useTranslations } from 'next-intl';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useIsNetworkOwner } from '@/lib/api/network-owner';
import type { SessionUser } from '@/lib/auth/types';
import { serializeTenantCookie, type TenantSelection } from '@/lib/tenant/tenant-cookie';

type TenantContextValue = {
  /** ADMIN chooses among all tenants, a network owner's OWNER among its own and its members; everyone else works in their own. */
  canSwitch: boolean;
  /** Switchers: the chosen tenant, or null for all they reach. Others: their own tenant. */
  tenant: TenantSelection | null;
  /**
   * What "no tenant chosen" covers: every tenant (ADMIN) or the network (a network owner's OWNER), in the console's
   * language. `phrase` fits after a verb ("you are looking at all tenants"); a sentence whose grammar differs per case
   * (a German genitive) selects on `scope` in ICU instead: `{scope, select, network {…} other {…}}`.
   */
  all: { scope: 'tenants' | 'network'; label: string; phrase: string };
  /** A switcher with no tenant chosen: lists that can span tenants show every tenant the caller reaches. */
  acrossTenants: boolean;
  /** The `customerId` to send with API calls; undefined means none (global for ADMIN, the network for its OWNER, own tenant otherwise). */
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
  // Known only once the own customer is loaded, so a network owner gets the switcher after the first paint.
  const isNetworkOwner = useIsNetworkOwner();
  const canSwitch = user.role === 'ADMIN' || isNetworkOwner;
  const t = useTranslations('shell.tenant');
  const isAdmin = user.role === 'ADMIN';
  const all = useMemo(
    () =>
      isAdmin
        ? { scope: 'tenants' as const, label: t('all'), phrase: t('allPhrase') }
        : { scope: 'network' as const, label: t('network'), phrase: t('networkPhrase') },
    [isAdmin, t],
  );
  const [selection, setSelection] = useState<TenantSelection | null>(initialSelection);

  const selectTenant = useCallback(
    (next: TenantSelection | null) => {
      if (!canSwitch) return;
      setSelection(next);
      document.cookie = serializeTenantCookie(next);
    },
    [canSwitch],
  );

  const value = useMemo<TenantContextValue>(() => {
    if (canSwitch) return { canSwitch, tenant: selection, all, acrossTenants: !selection, customerId: selection?.id, selectTenant };
    const own =
      user.customerId === null ? null : { id: user.customerId, name: user.customerName ?? t('fallbackName', { id: user.customerId }) };

    return { canSwitch, tenant: own, all, acrossTenants: false, customerId: undefined, selectTenant };
  }, [canSwitch, all, selection, selectTenant, user.customerId, user.customerName, t]);

  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export function useTenant(): TenantContextValue {
  const value = useContext(TenantContext);
  if (!value) throw new Error('useTenant must be used inside TenantProvider');

  return value;
}

'use client';

import { buildQuery, as } from '@/lib/api/client';
import { defineResource } from '@/lib/api/resource';
import type { AuditEntry } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';

export type AuditLogFilters = {
  text: string;
  /** Local calendar days, `YYYY-MM-DD`; empty for no bound. */
  from: string;
  to: string;
  order: 'ASC' | 'DESC';
};

type AuditLogParams = AuditLogFilters & { page: number; size: number; sort?: string };

/** The start of a local day in epoch ms. */
export function dayStart(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const t = new Date(`${day}T00:00:00`).getTime();

  return Number.isNaN(t) ? undefined : t;
}

/** The last millisecond of a local day in epoch ms. */
export function dayEnd(day: string): number | undefined {
  const start = dayStart(day);
  if (start === undefined) return undefined;
  const next = new Date(start);
  next.setDate(next.getDate() + 1);

  return next.getTime() - 1;
}

/** The query of `/api/v2/log` and `/api/v2/log/csv` for the filters (without paging for the CSV). */
export function auditLogQuery(filters: AuditLogFilters, customerId: number | undefined, paging?: { page: number; size: number }) {
  return {
    customerId,
    ...(paging ? { page: paging.page, size: paging.size } : {}),
    search: filters.text.trim() || undefined,
    order: filters.order,
    from: dayStart(filters.from),
    to: dayEnd(filters.to),
  };
}

export function auditLogCsvUrl(filters: AuditLogFilters, customerId: number | undefined): string {
  return `/api/v2/log/csv${buildQuery(auditLogQuery(filters, customerId))}`;
}

/** The audit log of the tenant in view: `customerId` is the tenant, -1 for every tenant (ADMIN), none for the caller's own or its network. */
const auditLogResource = defineResource({
  item: as<AuditEntry>(),
  key: 'auditLog',
  list: '/api/v2/log',
  listQuery: (params: AuditLogParams) => auditLogQuery(params, undefined),
  useTenantScope: () => useAuditLogScope().scope,
});

export const useAuditLog = auditLogResource.useList;

/**
 * The `customerId` of audit-log reads: the chosen tenant; ADMIN without one reads every tenant (-1, which
 * only ADMIN may send); a network owner's OWNER without one reads its network (no `customerId`).
 */
export function useAuditLogScope(): { scope: number | undefined; allTenants: boolean } {
  const me = useCurrentUser();
  const { canSwitch, tenant, customerId } = useTenant();
  const allTenants = canSwitch && !tenant;

  return { scope: allTenants && me.role === 'ADMIN' ? -1 : customerId, allTenants };
}

'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Schemas } from '@/lib/api/types';
import type {
  LicenseOrderCreate,
  LicenseOrderCustomerCreate,
  LicenseOrderLimited,
  LicensePackage,
  LicenseType,
} from '@/server/modules/licences/licences.schemas';

export type { LicenseOrderLimited, LicensePackage, LicenseType };
/** The document's order (the server schema's embedded references are declared loosely there). */
export type LicenseOrder = Schemas['LicenseOrder'];
export { licensePayTypes, licenseTypes, recurrenceTypes } from '@/server/modules/licences/licences.schemas';

/** The licence orders list's filter: every order, or only those awaiting the super admin's approval. */
export const ORDER_STATE_FILTERS = ['all', 'awaiting', 'approved'] as const;
export type OrderStateFilter = (typeof ORDER_STATE_FILTERS)[number];

type OrderListParams = ListRequest & { text: string; state: OrderStateFilter };
type PackageListParams = ListRequest & { text: string };

/** How often the shell's "awaiting approval" count is read again (orders come in from tenants meanwhile). */
const AWAITING_POLL_MS = 60_000;

/** Query keys other resources' changes make stale: the dashboard and the awaiting count. */
export const LICENCE_DASHBOARD_KEY = ['licenceDashboard'] as const;
export const AWAITING_COUNT_KEY = ['licenseOrders', 'awaitingCount'] as const;
/** The approved orders a screen can be licensed against (the claim and edit forms). */
const APPROVED_ORDERS_KEY = ['licenseOrders', 'approved'] as const;

/** Licence orders of the caller's scope (spec 3 "License order"): a tenant's own, a network's, or every tenant's. */
export const licenseOrderResource = defineResource({
  item: as<LicenseOrder>(),
  key: 'licenseOrders',
  list: '/api/licenseOrder',
  listQuery: (params: OrderListParams) => {
    const text = params.text.trim();

    return {
      search: toSearch(
        and(
          text
            ? or(
                term('customer.name', CONTAINS_IGNORING_CASE, text),
                term('poNumber', CONTAINS_IGNORING_CASE, text),
                term('comment', CONTAINS_IGNORING_CASE, text),
              )
            : null,
          params.state === 'all' ? null : term('approved', '=', params.state === 'approved'),
        ),
      ),
    };
  },
  detail: '/api/licenseOrder/{id}',
  // A new, approved or deleted order changes the free licences and the awaiting count.
  invalidates: [LICENCE_DASHBOARD_KEY],
});

/** Licence packages: the super admin's templates of tier and pricing (global, no tenant). */
export const licensePackageResource = defineResource({
  item: as<LicensePackage>(),
  key: 'licensePackages',
  list: '/api/licensePackage',
  listQuery: (params: PackageListParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
  }),
  detail: '/api/licensePackage/{id}',
  tenancy: 'global',
});

export const useLicenseOrders = licenseOrderResource.useList;
export const useLicensePackages = licensePackageResource.useList;

/** How many orders await approval in the caller's scope (the shell's badge); `enabled` only for who acts on it. */
export function useAwaitingApprovalCount(options: { enabled: boolean }) {
  const customerId = licenseOrderResource.useScope();

  return useQuery({
    queryKey: [...AWAITING_COUNT_KEY, { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/licenseOrder/getUnapprovedLicenseOrderCount', { params: { query: tenantQuery(customerId) }, signal })),
    enabled: options.enabled,
    refetchInterval: AWAITING_POLL_MS,
  });
}

/** A customer's approved orders in spec 3's limited view, each with `assignedDeviceCount`: what a screen may be licensed against. */
export function useApprovedOrders(customerId: number | undefined) {
  return useQuery({
    queryKey: [...APPROVED_ORDERS_KEY, { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/licenseOrder/getAllApprovedForCustomer/{customerId}', {
          params: { path: { customerId: customerId! } },
          signal,
        }),
        as<LicenseOrderLimited[]>(),
      ),
    enabled: customerId !== undefined,
  });
}

/** How many licences of an order no screen holds yet. */
export function freeOfOrder(order: Pick<LicenseOrderLimited, 'deviceLicenseCount' | 'assignedDeviceCount'>): number {
  return Math.max(0, (order.deviceLicenseCount ?? 0) - (order.assignedDeviceCount ?? 0));
}

/** The licence dashboard of one customer (spec 3 customer table, `GET /api/customer/{customerId}/license/dashboard`). */
export type LicenceTypeCount = { ordered: number; assigned: number; free: number };
export type LicenceDashboard = {
  totalLicenseCount: number;
  assignedLicenseCount: number;
  unAssignedLicenseCount: number;
  deviceStatusCounts: { UN_LICENSED: number; FREE: number; LICENSED: number; TRIAL: number };
  licenseTypeCounts: Partial<Record<LicenseType, LicenceTypeCount>>;
  browserSessionLimit: number;
  activeBrowserSessionCount: number;
  freeCount: number;
  usedFreeCount: number;
};

// TODO(issue 33 dashboard): the route is built on another branch; once main has it and `npm run openapi:client` has
// run, call `api.GET('/api/customer/{customerId}/license/dashboard', …)` typed by the document and drop this cast.
type DashboardGet = (
  path: '/api/customer/{customerId}/license/dashboard',
  init: { params: { path: { customerId: number } }; signal: AbortSignal },
) => Promise<{ data?: LicenceDashboard }>;

/** The licence dashboard of a customer (undefined: none chosen, nothing is read). */
export function useLicenceDashboard(customerId: number | undefined) {
  return useQuery({
    queryKey: [...LICENCE_DASHBOARD_KEY, { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(
        (api.GET as unknown as DashboardGet)('/api/customer/{customerId}/license/dashboard', {
          params: { path: { customerId: customerId! } },
          signal,
        }),
      ),
    enabled: customerId !== undefined,
    retry: false,
  });
}

/** The customer a per-customer read is about: the chosen tenant, or the caller's own where it has no switcher choice. */
export function useLicenceCustomer(): number | undefined {
  const { tenant } = useTenant();

  return tenant?.id;
}

export type CustomerOrderInput = LicenseOrderCustomerCreate & { customerId?: number };

/** Orders licences for the caller's customer, or (network owner) for a member: unapproved until the super admin approves. */
export function useOrderLicences() {
  return licenseOrderResource.useMutation(({ customerId, ...body }: CustomerOrderInput, scope) =>
    ok(
      api.POST('/api/licenseOrder/createAsCustomer', { params: { query: tenantQuery(customerId ?? scope.customerId) }, body }),
      as<LicenseOrder>(),
    ),
  );
}

/** ADMIN: an order for a customer, priced, maybe approved at once. */
export function useCreateLicenseOrder() {
  return licenseOrderResource.useMutation(({ customerId, ...body }: LicenseOrderCreate & { customerId: number }) =>
    ok(api.POST('/api/licenseOrder', { params: { query: { customerId } }, body }), as<LicenseOrder>()),
  );
}

/** ADMIN: changes an order (partial); `{ approved: true }` approves it. */
export function useUpdateLicenseOrder() {
  return licenseOrderResource.useMutation(({ id, changes }: { id: number; changes: Schemas['LicenseOrderUpdate'] }) =>
    ok(api.PUT('/api/licenseOrder/{id}', { params: { path: { id } }, body: changes }), as<LicenseOrder>()),
  );
}

/** Deletes an order: ADMIN any (rejecting an unapproved one), an OWNER its own unapproved ones. */
export function useDeleteLicenseOrder() {
  return licenseOrderResource.useMutation((id: number) => ok(api.DELETE('/api/licenseOrder/{id}', { params: { path: { id } } })), {
    deletes: true,
  });
}

export function useSaveLicensePackage() {
  return licensePackageResource.useMutation(
    (input: { id: number; changes: Schemas['LicensePackageUpdate'] } | { id?: undefined; changes: Schemas['LicensePackageCreate'] }) =>
      input.id === undefined
        ? ok(api.POST('/api/licensePackage', { body: input.changes }), as<LicensePackage>())
        : ok(api.PUT('/api/licensePackage/{id}', { params: { path: { id: input.id } }, body: input.changes }), as<LicensePackage>()),
  );
}

export function useDeleteLicensePackage() {
  return licensePackageResource.useMutation((id: number) => ok(api.DELETE('/api/licensePackage/{id}', { params: { path: { id } } })), {
    deletes: true,
  });
}

/** The CSV of every order of the chosen tenant (every tenant without one): a link the browser downloads. */
export function licenseOrdersCsvHref(customerId: number | undefined): string {
  return customerId === undefined ? '/api/licenseOrder/csv' : `/api/licenseOrder/csv?customerId=${customerId}`;
}

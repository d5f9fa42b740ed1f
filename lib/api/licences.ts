'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
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
const LICENCE_DASHBOARD_KEY = ['licenceDashboard'] as const;
const AWAITING_COUNT_KEY = ['licenseOrders', 'awaitingCount'] as const;
/** The approved orders a screen can be licensed against (the claim and edit forms). */
const APPROVED_ORDERS_KEY = ['licenseOrders', 'approved'] as const;

/** Licence orders of the caller's scope (spec 3 "License order"): a tenant's own, a network's, or every tenant's. */
const licenseOrderResource = defineResource({
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
const licensePackageResource = defineResource({
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

/** The licence dashboard of one customer (spec 3 customer table): licences by type, devices by status, free licences. */
export type LicenceDashboard = Schemas['LicenseDashboard'];
export type LicenceTypeCount = Schemas['LicenseTypeCount'];

/** The licence dashboard of a customer (undefined: none chosen, nothing is read). OWNER: others' reads fail (403). */
export function useLicenceDashboard(customerId: number | undefined) {
  return useQuery({
    queryKey: [...LICENCE_DASHBOARD_KEY, { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/customer/{customerId}/license/dashboard', { params: { path: { customerId: customerId! } }, signal })),
    enabled: customerId !== undefined,
    // A role below OWNER is refused (403): asking again changes nothing, the callers fall back at once.
    retry: false,
  });
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

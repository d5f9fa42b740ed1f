'use client';

import type { CustomerCreate, CustomerUpdate } from '@/server/modules/customers/customers.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, as, ok } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, NOT_NULL, term, toSearch } from '@/lib/api/query-language';
import { CUSTOMERS_KEY, ownCustomerKey } from '@/lib/api/network-owner';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Customer, Page } from '@/lib/api/types';
import { toUpdateBody } from '@/lib/api/update-body';

export type CustomerSelectParams = { text: string; page: number; size: number };
type CustomerListParams = ListRequest & { text: string };

const CUSTOMER_LIST_FIELDS =
  'name,licenseTier,vertical,comment,country,location,type,restricted,expirationDate,createdDate,ownerSubresellerId,ownerSubresellerName,subreseller,freeLicenses,browserSessionLicenses,deviceSessionLimit,storageSize,needsToBeInvoiced,lastActivity,totalUserLoginCount';

/** The search of the customers list: the name contains the text, ignoring case. */
export function customerTextSearch(text: string): string | undefined {
  const value = text.trim();

  return value ? toSearch(term('name', CONTAINS_IGNORING_CASE, value)) : undefined;
}

/** The tenants themselves: not inside a tenant (ADMIN sees all, a network owner's OWNER its network). */
const customerResource = defineResource({
  item: as<Customer>(),
  key: CUSTOMERS_KEY,
  list: '/api/customer',
  listQuery: (params: CustomerListParams) => ({ search: customerTextSearch(params.text), select: CUSTOMER_LIST_FIELDS }),
  tenancy: 'global',
});

const customerKeys = {
  ...customerResource.keys,
  selects: () => [...customerResource.keys.all, 'select'] as const,
  select: (params: CustomerSelectParams) => [...customerResource.keys.all, 'select', params] as const,
  networkOwners: () => [...customerResource.keys.all, 'networkOwners'] as const,
  own: ownCustomerKey,
};

export const useCustomers = customerResource.useList;

export function useCustomerSelect(params: CustomerSelectParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customerKeys.select(params),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/customer/select', {
          params: { query: { page: params.page, size: params.size, sort: 'name,asc', search: customerTextSearch(params.text) } },
          signal,
        }),
        as<Page<Customer>>(),
      ),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/**
 * The tenant column of lists that span tenants (all tenants, a whole network): the names of the tenants
 * a page shows, in one request for the page. Answers `#id` until the names arrive, or for a tenant the
 * caller cannot read.
 */
export type TenantName = (customerId: number | null | undefined) => string;

export function useTenantNames(customerIds: readonly (number | null | undefined)[], enabled: boolean): TenantName {
  const ids = [...new Set(customerIds.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  const query = useQuery({
    queryKey: [...customerKeys.selects(), 'names', ids] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/customer/select', {
          params: { query: { page: 0, size: ids.length, search: toSearch(term('id', '∈', ids)) } },
          signal,
        }),
        as<Page<Customer>>(),
      ),
    enabled: enabled && ids.length > 0,
    staleTime: 5 * 60_000,
  });
  const data = query.data;

  return useMemo(() => {
    const names = new Map((data?.content ?? []).map((c) => [c.id, c.name]));

    return (customerId) => (customerId === null || customerId === undefined ? '—' : (names.get(customerId) ?? `#${customerId}`));
  }, [data]);
}

/** The search that finds network owners: `subreseller=!NULL` (the keyword unencoded). */
export const NETWORK_OWNER_SEARCH = toSearch(term('subreseller', '=', NOT_NULL))!;

export function useNetworkOwners(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customerKeys.networkOwners(),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/customer', {
          params: { query: { search: NETWORK_OWNER_SEARCH, select: 'id,name', sort: 'name,asc', size: 1000 } },
          signal,
        }),
        as<Page<Customer>>(),
      ),
    enabled: options.enabled ?? true,
  });
}

/** A create or an update body, as the server's schemas declare them. */
export type CustomerWrite = Partial<CustomerCreate> & CustomerUpdate;

export function useSaveCustomer() {
  return customerResource.useMutation(({ id, body }: { id?: number; body: CustomerWrite }) => {
    if (id !== undefined) return ok(api.PUT('/api/customer/{id}', { params: { path: { id } }, body: toUpdateBody(body) }), as<Customer>());
    const { name } = body;
    if (name === undefined) throw new Error('A new customer needs a name');

    return ok(api.POST('/api/customer', { body: { ...body, name } }), as<Customer>());
  });
}

export function useDeleteCustomer() {
  return customerResource.useMutation(
    (id: number, { headers }) => ok(api.DELETE('/api/customer/{id}', { params: { path: { id } }, headers })),
    { protected: true },
  );
}

export function useNetworkOwnerChange() {
  return customerResource.useMutation(
    ({ id, action, subresellerId }: { id: number; action: 'promote' | 'remove' | 'move'; subresellerId?: number | null }) => {
      const params = { path: { id } };
      if (action === 'promote') return ok(api.POST('/api/customer/{id}/promoteAsSubreseller', { params }));
      if (action === 'remove') return ok(api.POST('/api/customer/{id}/removeSubresellerPrivilege', { params }));

      return ok(
        api.PUT('/api/customer/{id}/moveToSubreseller', { params: { ...params, query: { subresellerId: subresellerId ?? undefined } } }),
      );
    },
  );
}

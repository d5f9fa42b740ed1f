'use client';

import type { CustomerCreate, CustomerUpdate } from '@/server/modules/customers/customers.schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, NOT_NULL, term, toSearch } from '@/lib/api/query-language';
import { useRunProtected } from '@/components/shell/totp-prompt';
import { useCurrentUser } from '@/lib/auth/current-user';
import type { Customer, Page } from '@/lib/api/types';
import { toUpdateBody } from '@/lib/api/update-body';

export type CustomerSelectParams = { text: string; page: number; size: number };

export const customerKeys = {
  all: ['customers'] as const,
  selects: () => [...customerKeys.all, 'select'] as const,
  select: (params: CustomerSelectParams) => [...customerKeys.selects(), params] as const,
};

export function useCustomerSelect(params: CustomerSelectParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customerKeys.select(params),
    queryFn: ({ signal }) =>
      apiFetch<Page<Customer>>('/api/customer/select', {
        query: {
          page: params.page,
          size: params.size,
          sort: 'name,asc',
          search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export type CreateCustomerInput = { name: string; licenseTier?: string; vertical?: string };

export function useCreateCustomer() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (input: CreateCustomerInput) => apiFetch<Customer>('/api/customer', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.all }),
  });
}

/* ------------------------------------------------------------------ the customers page */


export type CustomerListParams = { page: number; size: number; sort: string; text: string };

const CUSTOMER_LIST_FIELDS =
  'name,licenseTier,vertical,comment,country,location,type,restricted,expirationDate,createdDate,ownerSubresellerId,ownerSubresellerName,subreseller,freeLicenses,browserSessionLicenses,deviceSessionLimit,storageSize,needsToBeInvoiced,lastActivity,totalUserLoginCount';

export const customerListKeys = {
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (params: CustomerListParams) => [...customerListKeys.lists(), params] as const,
  networkOwners: () => [...customerKeys.all, 'networkOwners'] as const,
  own: (id: number | null) => [...customerKeys.all, 'own', id] as const,
};

/** The search of the customers list: the name contains the text, ignoring case. */
export function customerTextSearch(text: string): string | undefined {
  const value = text.trim();

  return value ? toSearch(term('name', CONTAINS_IGNORING_CASE, value)) : undefined;
}

/** The search that finds network owners: `subreseller=!NULL` (the keyword unencoded). */
export const NETWORK_OWNER_SEARCH = toSearch(term('subreseller', '=', NOT_NULL))!;

export function useCustomers(params: CustomerListParams) {
  return useQuery({
    queryKey: customerListKeys.list(params),
    queryFn: ({ signal }) =>
      apiFetch<Page<Customer>>('/api/customer', {
        query: { page: params.page, size: params.size, sort: params.sort, search: customerTextSearch(params.text), select: CUSTOMER_LIST_FIELDS },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useNetworkOwners(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customerListKeys.networkOwners(),
    queryFn: ({ signal }) =>
      apiFetch<Page<Customer>>('/api/customer', { query: { search: NETWORK_OWNER_SEARCH, select: 'id,name', sort: 'name,asc', size: 1000 }, signal }),
    enabled: options.enabled ?? true,
  });
}

/** Whether the signed-in user's own customer is a network owner (an OWNER of one manages its customers). */
export function useIsNetworkOwner(): boolean {
  const user = useCurrentUser();
  const enabled = user.role === 'OWNER' && user.customerId !== null;
  const query = useQuery({
    queryKey: customerListKeys.own(user.customerId),
    queryFn: ({ signal }) => apiFetch<Customer>(`/api/customer/${user.customerId}`, { query: { select: 'subreseller' }, signal }),
    enabled,
    staleTime: 5 * 60_000,
  });

  return enabled && Boolean(query.data?.subreseller);
}

/** A create or an update body, as the server's schemas declare them. */
export type CustomerWrite = Partial<CustomerCreate> & CustomerUpdate;

function useCustomerMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();

  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.all }) });
}

export function useSaveCustomer() {
  return useCustomerMutation(({ id, body }: { id?: number; body: CustomerWrite }) =>
    id === undefined
      ? apiFetch<Customer>('/api/customer', { method: 'POST', body })
      : apiFetch<Customer>(`/api/customer/${id}`, { method: 'PUT', body: toUpdateBody(body) }),
  );
}

export function useDeleteCustomer() {
  const runProtected = useRunProtected();

  return useCustomerMutation((id: number) =>
    runProtected((headers) => apiFetch<void>(`/api/customer/${id}`, { method: 'DELETE', headers })),
  );
}

export function useNetworkOwnerChange() {
  return useCustomerMutation(({ id, action, subresellerId }: { id: number; action: 'promote' | 'remove' | 'move'; subresellerId?: number | null }) => {
    if (action === 'promote') return apiFetch<unknown>(`/api/customer/${id}/promoteAsSubreseller`, { method: 'POST' });
    if (action === 'remove') return apiFetch<unknown>(`/api/customer/${id}/removeSubresellerPrivilege`, { method: 'POST' });

    return apiFetch<unknown>(`/api/customer/${id}/moveToSubreseller`, { method: 'PUT', query: { subresellerId: subresellerId ?? undefined } });
  });
}

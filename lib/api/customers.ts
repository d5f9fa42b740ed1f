'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { term, toSearch } from '@/lib/api/query-language';
import type { Customer, Page } from '@/lib/api/types';

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
          search: params.text.trim() ? toSearch(term('name', ':', params.text.trim())) : undefined,
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

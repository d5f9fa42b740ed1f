'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { term } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';

export type QuickFilterType = 'FILE' | 'CONTENT' | 'DEVICE';

/** Spec 3 "Quick filter" criteria; FILE criteria add the validity switches. */
export type QuickFilterCriteria = {
  type: QuickFilterType;
  search?: string;
  folderId?: string;
  searchRecursively?: boolean;
  name?: string;
  tags?: string[];
  validFileOnly?: boolean;
  isUndefinedValidityValid?: boolean;
};

export type QuickFilter = {
  id: string;
  name: string;
  filteredEntityType: QuickFilterType;
  criteria: QuickFilterCriteria;
  listed?: boolean;
  readOnly?: boolean;
};

const quickFilterKeys = {
  all: ['quickFilters'] as const,
  list: (customerId: number | undefined, type: QuickFilterType) => [...quickFilterKeys.all, 'list', { customerId, type }] as const,
};

export function useQuickFilters(type: QuickFilterType, { enabled = true }: { enabled?: boolean } = {}) {
  const { customerId } = useTenant();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...quickFilterKeys.list(customerId, type), teamReads.params] as const,
    queryFn: ({ signal }) =>
      apiFetch<Page<QuickFilter>>('/api/v2/quickFilter', {
        query: { page: 0, size: 200, sort: 'name,asc', search: term('filteredEntityType', '=', type).text, ...teamReads.params },
        customerId,
        signal,
      }),
    enabled: enabled && teamReads.ready,
  });
}

export function useCreateQuickFilter() {
  const queryClient = useQueryClient();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: (input: { name: string; filteredEntityType: QuickFilterType; criteria: QuickFilterCriteria; listed?: boolean }) =>
      apiFetch<QuickFilter>('/api/quickFilter/', { method: 'POST', body: { listed: true, ...input }, customerId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickFilterKeys.all }),
  });
}

export function useDeleteQuickFilter() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (id: string) => apiFetch<void>('/api/quickFilter/', { method: 'DELETE', query: { quickFilterId: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickFilterKeys.all }),
  });
}

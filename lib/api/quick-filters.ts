'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { term } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';
import type {
  Criteria,
  QuickFilter as QuickFilterItem,
  QuickFilterCreate,
  filteredEntityTypeValues,
} from '@/server/modules/quick-filters/quick-filters.schemas';

export type QuickFilterType = (typeof filteredEntityTypeValues)[number];

/** Spec 3 "Quick filter" criteria; FILE criteria add the folder and the validity switches. */
export type QuickFilterCriteria = Criteria;

/** A quick filter as the list answers it by default: the server stores its criteria checked against `Criteria`. */
export type QuickFilter = QuickFilterItem & { name: string; filteredEntityType: QuickFilterType; criteria: QuickFilterCriteria };

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
      ok(
        api.GET('/api/v2/quickFilter', {
          params: {
            query: {
              page: 0,
              size: 200,
              sort: 'name,asc',
              search: term('filteredEntityType', '=', type).text,
              ...teamReads.params,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<QuickFilter>>(),
      ),
    enabled: enabled && teamReads.ready,
  });
}

export function useCreateQuickFilter() {
  const queryClient = useQueryClient();
  const { customerId } = useTenant();

  return useMutation({
    mutationFn: (input: QuickFilterCreate) =>
      ok(api.POST('/api/quickFilter', { params: { query: tenantQuery(customerId) }, body: { listed: true, ...input } }), as<QuickFilter>()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickFilterKeys.all }),
  });
}

export function useDeleteQuickFilter() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/api/quickFilter', { params: { query: { quickFilterId: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickFilterKeys.all }),
  });
}

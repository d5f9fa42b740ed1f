'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, as } from '@/lib/api/client';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { toUpdateBody } from '@/lib/api/update-body';
import type { Advertiser, ProofOfPlayLinks } from '@/server/modules/advertisers/advertisers.schemas';

export type { Advertiser, ProofOfPlayLinks };

export type AdvertiserListParams = ListRequest & { text: string };

/** Advertisers of the selected tenant (spec 2 "Advertisers"), team read parameters included. */
export const advertiserResource = defineResource({
  item: as<Advertiser>(),
  key: 'advertisers',
  list: '/api/adv',
  listQuery: (params: AdvertiserListParams) => ({ search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined }),
  detail: '/api/adv/{advertiserId}',
  teamCapable: true,
  // The ADVERTISER usage in the resource limits.
  invalidates: [['settings', 'limits']],
});

export const useAdvertisers = advertiserResource.useList;

/** What the form sends: the console writes null for "no value". */
export type AdvertiserInput = {
  name: string;
  comment: string | null;
  enabled: boolean;
  validity: { fromDate?: string; toDate?: string; cron?: string; timeZone?: string } | null;
};

export function useCreateAdvertiser() {
  return advertiserResource.useMutation((input: AdvertiserInput, { customerId }) => apiFetch<Advertiser>('/api/adv', { method: 'POST', body: input, customerId }));
}

export function useUpdateAdvertiser() {
  return advertiserResource.useMutation(({ id, input }: { id: string; input: AdvertiserInput }, { customerId }) =>
    apiFetch<Advertiser>(`/api/adv/${encodeURIComponent(id)}`, { method: 'PUT', body: toUpdateBody(input), customerId }),
  );
}

export function useDeleteAdvertiser() {
  return advertiserResource.useMutation((id: string, { customerId }) => apiFetch<void>(`/api/adv/${encodeURIComponent(id)}`, { method: 'DELETE', customerId }), {
    deletes: true,
  });
}

const linksKey = (customerId: number | undefined, id: string) => [...advertiserResource.keys.all, 'links', { customerId, id }] as const;

/** The proof-of-play links of one advertiser (the export URL while enabled). */
export function useProofOfPlayLinks(id: string | null) {
  const customerId = advertiserResource.useScope();

  return useQuery({
    queryKey: linksKey(customerId, id ?? ''),
    queryFn: ({ signal }) => apiFetch<ProofOfPlayLinks>('/api/adv/getProofOfPlayLinks', { query: { advId: id }, customerId, signal }),
    enabled: id !== null,
  });
}

/** Enables (again: renews) or disables the links; the answer replaces the cached links. */
export function useSetProofOfPlayLinks(id: string) {
  const queryClient = useQueryClient();
  const customerId = advertiserResource.useScope();

  return advertiserResource.useMutation(
    (enable: boolean) =>
      apiFetch<ProofOfPlayLinks>(`/api/adv/${enable ? 'enable' : 'disable'}ProofOfPlayLinks`, { method: 'PUT', query: { advId: id }, customerId }),
    { onSuccess: (links) => queryClient.setQueryData(linksKey(customerId, id), links) },
  );
}

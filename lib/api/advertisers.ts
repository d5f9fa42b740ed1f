'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { CONTAINS_IGNORING_CASE, term, toSearch } from '@/lib/api/query-language';
import { toUpdateBody } from '@/lib/api/update-body';
import type { Schemas } from '@/lib/api/types';
import type { Advertiser, ProofOfPlayLinks } from '@/server/modules/advertisers/advertisers.schemas';

export type { Advertiser, ProofOfPlayLinks };

/** What the form sends: the create body of the document (null for "no value"); an update sends it as an update body. */
export type AdvertiserCreate = Schemas['AdvertiserCreate'];

export type AdvertiserListParams = ListRequest & { text: string };

/** Advertisers of the selected tenant (spec 2 "Advertisers"), team read parameters included. */
export const advertiserResource = defineResource({
  item: as<Advertiser>(),
  key: 'advertisers',
  list: '/api/adv',
  listQuery: (params: AdvertiserListParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
  }),
  detail: '/api/adv/{advertiserId}',
  teamCapable: true,
  // The ADVERTISER usage in the resource limits.
  invalidates: [['settings', 'limits']],
});

export const useAdvertisers = advertiserResource.useList;

export function useCreateAdvertiser() {
  return advertiserResource.useMutation((input: AdvertiserCreate, { customerId }) =>
    ok(api.POST('/api/adv', { params: { query: tenantQuery(customerId) }, body: input }), as<Advertiser>()),
  );
}

export function useUpdateAdvertiser() {
  return advertiserResource.useMutation(({ id, input }: { id: string; input: AdvertiserCreate }, { customerId }) =>
    ok(
      api.PUT('/api/adv/{advertiserId}', {
        params: { path: { advertiserId: id }, query: tenantQuery(customerId) },
        body: toUpdateBody(input),
      }),
      as<Advertiser>(),
    ),
  );
}

export function useDeleteAdvertiser() {
  return advertiserResource.useMutation(
    (id: string, { customerId }) =>
      ok(api.DELETE('/api/adv/{advertiserId}', { params: { path: { advertiserId: id }, query: tenantQuery(customerId) } })),
    {
      deletes: true,
    },
  );
}

const linksKey = (customerId: number | undefined, id: string) => [...advertiserResource.keys.all, 'links', { customerId, id }] as const;

/** The proof-of-play links of one advertiser (the export URL while enabled). */
export function useProofOfPlayLinks(id: string | null) {
  const customerId = advertiserResource.useScope();

  return useQuery({
    queryKey: linksKey(customerId, id ?? ''),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/adv/getProofOfPlayLinks', { params: { query: { advId: id!, ...tenantQuery(customerId) } }, signal }),
        as<ProofOfPlayLinks>(),
      ),
    enabled: id !== null,
  });
}

/** Enables (again: renews) or disables the links; the answer replaces the cached links. */
export function useSetProofOfPlayLinks(id: string) {
  const queryClient = useQueryClient();
  const customerId = advertiserResource.useScope();

  return advertiserResource.useMutation(
    (enable: boolean) => {
      const params = { query: { advId: id, ...tenantQuery(customerId) } };

      return ok(
        enable ? api.PUT('/api/adv/enableProofOfPlayLinks', { params }) : api.PUT('/api/adv/disableProofOfPlayLinks', { params }),
        as<ProofOfPlayLinks>(),
      );
    },
    { onSuccess: (links) => queryClient.setQueryData(linksKey(customerId, id), links) },
  );
}

'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UiProfile } from '@/server/modules/ui-profiles/ui-profiles.schemas';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { term, toSearch } from '@/lib/api/query-language';
import type { Page, Schemas, User } from '@/lib/api/types';
import { userKeys } from '@/lib/api/users';

export type { UiProfile } from '@/server/modules/ui-profiles/ui-profiles.schemas';

export type UiProfileInput = Schemas['UserInterfaceProfileCreate'];

const uiProfileKeys = {
  all: ['uiProfiles'] as const,
  list: (customerId: number | undefined, page: number, size: number) => [...uiProfileKeys.all, 'list', { customerId, page, size }] as const,
  users: (customerId: number | undefined, profileId: number) => [...uiProfileKeys.all, 'users', { customerId, profileId }] as const,
};

export function useUiProfiles(customerId: number | undefined, { page, size }: { page: number; size: number }, enabled = true) {
  return useQuery({
    queryKey: uiProfileKeys.list(customerId, page, size),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/userInterfaceProfile', {
          params: { query: { page, size, sort: 'name,asc', ...tenantQuery(customerId) } },
          signal,
        }),
        as<Page<UiProfile>>(),
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Users of the tenant that have this profile (at most 1 000, the API's page limit). */
export function useUiProfileUsers(customerId: number | undefined, profileId: number | null) {
  return useQuery({
    queryKey: uiProfileKeys.users(customerId, profileId ?? 0),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/user', {
          params: {
            query: {
              size: 1000,
              sort: 'name,asc',
              select: 'name,email,role',
              search: toSearch(term('userInterfaceProfile.id', '=', profileId ?? 0)),
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<User>>(),
      ),
    enabled: profileId !== null,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();

  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: uiProfileKeys.all }),
      // The signed-in user's own profile may have changed.
      queryClient.invalidateQueries({ queryKey: userKeys.me() }),
      // The UI_PROFILE usage in the resource limits.
      queryClient.invalidateQueries({ queryKey: ['settings', 'limits'] }),
    ]);
}

export function useCreateUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: (input: UiProfileInput) =>
      ok(api.POST('/api/v2/userInterfaceProfile', { params: { query: tenantQuery(customerId) }, body: input })),
    onSuccess: invalidate,
  });
}

export function useUpdateUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: Schemas['UserInterfaceProfileUpdate'] }) =>
      ok(api.PUT('/api/v2/userInterfaceProfile/{id}', { params: { path: { id }, query: tenantQuery(customerId) }, body: input })),
    onSuccess: invalidate,
  });
}

export function useAssignUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: ({ id, assignUserIds, removeUserIds }: { id: number; assignUserIds: string[]; removeUserIds: string[] }) =>
      ok(
        api.POST('/api/v2/userInterfaceProfile/{id}/assign', {
          params: { path: { id }, query: tenantQuery(customerId) },
          body: { assignUserIds, removeUserIds },
        }),
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: (id: number) =>
      ok(api.DELETE('/api/v2/userInterfaceProfile/{id}', { params: { path: { id }, query: tenantQuery(customerId) } })),
    onSuccess: invalidate,
  });
}

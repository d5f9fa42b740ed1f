'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { term, toSearch } from '@/lib/api/query-language';
import type { Page, User } from '@/lib/api/types';
import { userKeys } from '@/lib/api/users';
import type { RulesDocument } from '@/lib/ui-profile/rules';

const BASE = '/api/v2/userInterfaceProfile';

export type UiProfile = {
  id: number;
  name: string;
  comment?: string | null;
  hiddenUIElementRules?: RulesDocument | null;
  customerId?: number | null;
};

export type UiProfileInput = { name: string; comment?: string; hiddenUIElementRules: RulesDocument };

const uiProfileKeys = {
  all: ['uiProfiles'] as const,
  list: (customerId: number | undefined, page: number, size: number) => [...uiProfileKeys.all, 'list', { customerId, page, size }] as const,
  users: (customerId: number | undefined, profileId: number) => [...uiProfileKeys.all, 'users', { customerId, profileId }] as const,
};

export function useUiProfiles(customerId: number | undefined, { page, size }: { page: number; size: number }, enabled = true) {
  return useQuery({
    queryKey: uiProfileKeys.list(customerId, page, size),
    queryFn: ({ signal }) => apiFetch<Page<UiProfile>>(BASE, { query: { page, size, sort: 'name,asc' }, customerId, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Users of the tenant that have this profile (at most 1 000, the API's page limit). */
export function useUiProfileUsers(customerId: number | undefined, profileId: number | null) {
  return useQuery({
    queryKey: uiProfileKeys.users(customerId, profileId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch<Page<User>>('/api/v2/user', {
        query: { size: 1000, sort: 'name,asc', select: 'name,email,role', search: toSearch(term('userInterfaceProfile.id', '=', profileId ?? 0)) },
        customerId,
        signal,
      }),
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
    mutationFn: (input: UiProfileInput) => apiFetch<UiProfile>(BASE, { method: 'POST', body: input, customerId }),
    onSuccess: invalidate,
  });
}

export function useUpdateUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: Partial<UiProfileInput> }) =>
      apiFetch<UiProfile>(`${BASE}/${id}`, { method: 'PUT', body: input, customerId }),
    onSuccess: invalidate,
  });
}

export function useAssignUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: ({ id, assignUserIds, removeUserIds }: { id: number; assignUserIds: string[]; removeUserIds: string[] }) =>
      apiFetch<UiProfile>(`${BASE}/${id}/assign`, { method: 'POST', body: { assignUserIds, removeUserIds }, customerId }),
    onSuccess: invalidate,
  });
}

export function useDeleteUiProfile(customerId: number | undefined) {
  const invalidate = useInvalidate();

  return useMutation({
    mutationFn: (id: number) => apiFetch<void>(`${BASE}/${id}`, { method: 'DELETE', customerId }),
    onSuccess: invalidate,
  });
}

'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import { or, term, toSearch } from '@/lib/api/query-language';
import type { Me, Page, User } from '@/lib/api/types';
import { useTenant } from '@/lib/tenant/tenant-context';

export type UserListParams = {
  page: number;
  size: number;
  /** `field,direction` */
  sort: string;
  /** Free text matched against name and e-mail. */
  text: string;
  /** Also fetch each user's tenant name (the relation is returned only when selected). */
  withTenant?: boolean;
};

const USER_LIST_FIELDS = 'name,email,role,lastLogin,createdDate,customerId';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (customerId: number | undefined, params: UserListParams) => [...userKeys.lists(), { customerId, ...params }] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export function userTextSearch(text: string): string | undefined {
  const value = text.trim();
  if (!value) return undefined;

  return toSearch(or(term('name', ':', value), term('email', ':', value)));
}

export function useUsers(params: UserListParams) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: userKeys.list(customerId, params),
    queryFn: ({ signal }) =>
      apiFetch<Page<User>>('/api/v2/user', {
        query: {
          page: params.page,
          size: params.size,
          sort: params.sort,
          search: userTextSearch(params.text),
          select: params.withTenant ? `${USER_LIST_FIELDS},customer(id,name)` : USER_LIST_FIELDS,
        },
        customerId,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useMe() {
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => apiFetch<Me>('/api/v2/user/me', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The spec's cheap count: one row, only ids, read totalElements. */
export function useUserCount() {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: [...userKeys.lists(), 'count', { customerId }] as const,
    queryFn: ({ signal }) =>
      apiFetch<Page<User>>('/api/v2/user', { query: { page: 0, size: 1, select: 'id' }, customerId, signal }).then(
        (page) => page.totalElements,
      ),
  });
}

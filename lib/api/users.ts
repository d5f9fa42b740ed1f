'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRunProtected } from '@/components/shell/totp-prompt';
import { apiFetch } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Me, Page, Role, User } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
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

const USER_LIST_FIELDS = 'name,email,role,lastLogin,lastActivity,createdDate,customerId,language,readOnly,restricted,use2FA,authProvider';

const ME_FIELDS = 'name,email,role,language,createdDate,lastLogin,use2FA,forceToSet2FA,hasProfilePicture,profilePictureApiPath,customer(id,name)';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (customerId: number | undefined, params: UserListParams) => [...userKeys.lists(), { customerId, ...params }] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export function userTextSearch(text: string): string | undefined {
  const value = text.trim();
  if (!value) return undefined;

  return toSearch(or(term('name', CONTAINS_IGNORING_CASE, value), term('email', CONTAINS_IGNORING_CASE, value)));
}

export function useUsers(params: UserListParams) {
  const { customerId } = useTenant();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...userKeys.list(customerId, params), teamReads.params] as const,
    queryFn: ({ signal }) =>
      apiFetch<Page<User>>('/api/v2/user', {
        query: {
          page: params.page,
          size: params.size,
          sort: params.sort,
          search: userTextSearch(params.text),
          select: params.withTenant ? `${USER_LIST_FIELDS},customer(id,name)` : USER_LIST_FIELDS,
          ...teamReads.params,
        },
        customerId,
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: teamReads.ready,
  });
}

export function useMe() {
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => apiFetch<Me>('/api/v2/user/me', { query: { select: ME_FIELDS }, signal }),
    staleTime: 5 * 60_000,
  });
}

/** The spec's cheap count: one row, only ids, read totalElements. */
export function useUserCount() {
  const { customerId } = useTenant();
  const teamReads = useTeamReads();

  return useQuery({
    queryKey: [...userKeys.lists(), 'count', { customerId, ...teamReads.params }] as const,
    queryFn: ({ signal }) =>
      apiFetch<Page<User>>('/api/v2/user', { query: { page: 0, size: 1, select: 'id', ...teamReads.params }, customerId, signal }).then(
        (page) => page.totalElements,
      ),
    enabled: teamReads.ready,
  });
}

export type CreateUserInput = { email: string; name: string; role: Role; password: string; language?: string };
export type UpdateUserInput = Partial<{
  name: string;
  role: Role;
  language: string;
  restricted: boolean;
  readOnly: boolean;
  use2FA: false;
}>;

/**
 * Creates a user in `customerId` (the tenant chosen in the dialog), else the selected tenant, else the
 * caller's own: spec 3 requires `customerId` from everyone but ADMIN, so it is always sent.
 */
export function useCreateUser() {
  const queryClient = useQueryClient();
  const runProtected = useRunProtected();
  const { customerId: selected } = useTenant();
  const me = useCurrentUser();

  return useMutation({
    mutationFn: ({ customerId, ...input }: CreateUserInput & { customerId?: number }) =>
      runProtected((headers) => apiFetch<User>('/api/user/', { method: 'POST', body: input, customerId: customerId ?? selected ?? me.customerId, headers })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** Partial update by e-mail; role, readOnly, restricted and use2FA changes are protected. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  const runProtected = useRunProtected();

  return useMutation({
    mutationFn: ({ email, changes }: { email: string; changes: UpdateUserInput }) =>
      runProtected((headers) => apiFetch<User>('/api/user/', { method: 'PUT', query: { email }, body: changes, headers })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  const runProtected = useRunProtected();

  return useMutation({
    mutationFn: (email: string) => runProtected((headers) => apiFetch<void>('/api/user/', { method: 'DELETE', query: { email }, headers })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useChangePassword() {
  const runProtected = useRunProtected();

  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      runProtected((headers) =>
        apiFetch<void>('/api/user/password', { method: 'POST', query: { oldPassword, newPassword }, headers }),
      ),
  });
}

export type TotpSecret = { secret: string; otpauthUrl: string };

export function useStartTotpEnrolment() {
  return useMutation({ mutationFn: () => apiFetch<TotpSecret>('/api/user/2fa/secret', { method: 'POST' }) });
}

/** Enables (confirming the pending secret) or disables the caller's second factor with a current code. */
export function useSetTotp() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ totp, enable }: { totp: string; enable: boolean }) =>
      // Disabling is protected: the same current code proves it.
      apiFetch<void>('/api/user/2fa', { method: 'POST', query: { totp, enable }, headers: enable ? {} : { 'x-totp': totp } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUploadProfilePicture() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);

      return apiFetch<unknown>('/api/v2/user/profilePicture', { method: 'POST', body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useDeleteProfilePicture() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: () => apiFetch<void>('/api/v2/user/profilePicture', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

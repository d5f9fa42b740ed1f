'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRunProtected } from '@/lib/api/run-protected';
import { apiFetch } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Me, Role, User } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';

type UserListParams = ListRequest & {
  /** Free text matched against name and e-mail. */
  text: string;
  /** Also fetch each user's tenant name (the relation is returned only when selected). */
  withTenant?: boolean;
};

const USER_LIST_FIELDS = 'name,email,role,lastLogin,lastActivity,createdDate,customerId,language,readOnly,restricted,use2FA,authProvider';

const ME_FIELDS = 'name,email,role,language,restricted,createdDate,lastLogin,use2FA,forceToSet2FA,hasProfilePicture,profilePictureApiPath,customer(id,name)';

export function userTextSearch(text: string): string | undefined {
  const value = text.trim();
  if (!value) return undefined;

  return toSearch(or(term('name', CONTAINS_IGNORING_CASE, value), term('email', CONTAINS_IGNORING_CASE, value)));
}

/** The users of the selected tenant (users are team-capable: a team member sees its teams' users). */
const userResource = defineResource<User, UserListParams>({
  key: 'users',
  listPath: '/api/v2/user',
  listQuery: (params) => ({
    search: userTextSearch(params.text),
    select: params.withTenant ? `${USER_LIST_FIELDS},customer(id,name)` : USER_LIST_FIELDS,
  }),
  teamCapable: true,
});

export const userKeys = { ...userResource.keys, me: () => [...userResource.keys.all, 'me'] as const };

export const useUsers = userResource.useList;

/** The spec's cheap count of the users the caller sees. */
export const useUserCount = userResource.useCount;

export function useMe() {
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => apiFetch<Me>('/api/v2/user/me', { query: { select: ME_FIELDS }, signal }),
    staleTime: 5 * 60_000,
  });
}

export type CreateUserInput = { email: string; name: string; role: Role; password: string; language?: string; restricted?: boolean; teamIds?: string[] };
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
  const me = useCurrentUser();

  return userResource.useMutation(
    ({ customerId: chosen, teamIds = [], ...input }: CreateUserInput & { customerId?: number }, { customerId: selected, headers }) =>
      apiFetch<User>('/api/user/', {
        method: 'POST',
        body: input,
        // Spec 1 `teamIds`: `<teamId>:<readOnly>` pairs; the user's own membership row is not read-only.
        query: teamIds.length > 0 ? { teamIds: teamIds.map((id) => `${id}:false`).join(',') } : undefined,
        customerId: chosen ?? selected ?? me.customerId,
        headers,
      }),
    { protected: true },
  );
}

/** Partial update by e-mail; role, readOnly, restricted and use2FA changes are protected. */
export function useUpdateUser() {
  return userResource.useMutation(
    ({ email, changes }: { email: string; changes: UpdateUserInput }, { headers }) => apiFetch<User>('/api/user/', { method: 'PUT', query: { email }, body: changes, headers }),
    { protected: true },
  );
}

export function useDeleteUser() {
  return userResource.useMutation((email: string, { headers }) => apiFetch<void>('/api/user/', { method: 'DELETE', query: { email }, headers }), { protected: true });
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
  // Disabling is protected: the same current code proves it.
  return userResource.useMutation(({ totp, enable }: { totp: string; enable: boolean }) =>
    apiFetch<void>('/api/user/2fa', { method: 'POST', query: { totp, enable }, headers: enable ? {} : { 'x-totp': totp } }),
  );
}

export function useUploadProfilePicture() {
  return userResource.useMutation((file: File) => {
    const form = new FormData();
    form.append('file', file);

    return apiFetch<unknown>('/api/v2/user/profilePicture', { method: 'POST', body: form });
  });
}

export function useDeleteProfilePicture() {
  return userResource.useMutation(() => apiFetch<void>('/api/v2/user/profilePicture', { method: 'DELETE' }));
}

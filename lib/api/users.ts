'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRunProtected } from '@/lib/api/run-protected';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { writableTeamsQuery } from '@/lib/api/team-reads';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Me, Schemas, User } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';

type UserListParams = ListRequest & {
  /** Free text matched against name and e-mail. */
  text: string;
  /** Also fetch each user's tenant name (the relation is returned only when selected). */
  withTenant?: boolean;
};

const USER_LIST_FIELDS = 'name,email,role,lastLogin,lastActivity,createdDate,customerId,language,readOnly,restricted,use2FA,authProvider';

const ME_FIELDS =
  'name,email,role,language,restricted,createdDate,lastLogin,use2FA,forceToSet2FA,hasProfilePicture,profilePictureApiPath,customer(id,name)';

export function userTextSearch(text: string): string | undefined {
  const value = text.trim();
  if (!value) return undefined;

  return toSearch(or(term('name', CONTAINS_IGNORING_CASE, value), term('email', CONTAINS_IGNORING_CASE, value)));
}

/** The users of the selected tenant (users are team-capable: a team member sees its teams' users). */
const userResource = defineResource({
  item: as<User>(),
  key: 'users',
  list: '/api/v2/user',
  listQuery: (params: UserListParams) => ({
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
    queryFn: ({ signal }) => ok(api.GET('/api/v2/user/me', { params: { query: { select: ME_FIELDS } }, signal }), as<Me>()),
    staleTime: 5 * 60_000,
  });
}

/** A new user, and the teams it joins. */
export type CreateUserInput = Schemas['UserCreate'] & { teamIds?: string[] };
export type UpdateUserInput = Schemas['UserUpdate'];

/**
 * Creates a user in `customerId` (the tenant chosen in the dialog), else the selected tenant, else the
 * caller's own: spec 3 requires `customerId` from everyone but ADMIN, so it is always sent.
 */
export function useCreateUser() {
  const me = useCurrentUser();

  return userResource.useMutation(
    ({ customerId: chosen, teamIds = [], ...input }: CreateUserInput & { customerId?: number }, { customerId: selected, headers }) =>
      ok(
        api.POST('/api/user', {
          params: {
            query: {
              // The user's own membership row is not read-only.
              ...writableTeamsQuery(teamIds),
              ...tenantQuery(chosen ?? selected ?? me.customerId),
            },
          },
          body: input,
          headers,
        }),
        as<User>(),
      ),
    { protected: true },
  );
}

/** Partial update by e-mail; role, readOnly, restricted and use2FA changes are protected. */
export function useUpdateUser() {
  return userResource.useMutation(
    ({ email, changes }: { email: string; changes: UpdateUserInput }, { headers }) =>
      ok(api.PUT('/api/user', { params: { query: { email } }, body: changes, headers }), as<User>()),
    { protected: true },
  );
}

export function useDeleteUser() {
  return userResource.useMutation((email: string, { headers }) => ok(api.DELETE('/api/user', { params: { query: { email } }, headers })), {
    protected: true,
  });
}

export function useChangePassword() {
  const runProtected = useRunProtected();

  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      runProtected((headers) => ok(api.POST('/api/user/password', { params: { query: { oldPassword, newPassword } }, headers }))),
  });
}

/** Deletes the caller's own account (protected: the one-time-code prompt asks when the API wants proof). */
export function useDeleteMyAccount() {
  const runProtected = useRunProtected();

  return useMutation({ mutationFn: () => runProtected((headers) => ok(api.DELETE('/api/user/myAccount', { headers }))) });
}

export type TotpSecret = Schemas['TwoFactorSecret'];

export function useStartTotpEnrolment() {
  return useMutation({ mutationFn: () => ok(api.POST('/api/user/2fa/secret')) });
}

/** Enables (confirming the pending secret) or disables the caller's second factor with a current code. */
export function useSetTotp() {
  // Disabling is protected: the same current code proves it.
  return userResource.useMutation(({ totp, enable }: { totp: string; enable: boolean }) =>
    ok(api.POST('/api/user/2fa', { params: { query: { totp, enable } }, headers: enable ? {} : { 'x-totp': totp } })),
  );
}

export function useUploadProfilePicture() {
  return userResource.useMutation((file: File) =>
    ok(
      api.POST('/api/v2/user/profilePicture', {
        // The document types a multipart file part as a string (`format: binary`); in the browser it is the File.
        body: { file: file as unknown as string },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append('file', body.file);

          return form;
        },
      }),
    ),
  );
}

export function useDeleteProfilePicture() {
  return userResource.useMutation(() => ok(api.DELETE('/api/v2/user/profilePicture')));
}

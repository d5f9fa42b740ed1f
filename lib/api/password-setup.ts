'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { Schemas } from '@/lib/api/types';

/** A password-setup link as the public endpoint describes it. */
export type PasswordSetupLink = Schemas['PasswordSetupState'];

export function usePasswordSetupLink(token: string) {
  return useQuery({
    queryKey: ['passwordSetup', token],
    queryFn: ({ signal }) => ok(api.GET('/public-api/user/passwordSetup', { params: { query: { token } }, signal })),
    enabled: token !== '',
    staleTime: Infinity,
  });
}

export function useCompletePasswordSetup() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => ok(api.POST('/public-api/user/passwordSetup', { body: input })),
  });
}

/** How a resent link travels: MAIL (queued for the SMTP server) or OUTBOX (none configured: it waits). */
export type ResentLink = Schemas['ResentPasswordSetupLink'];

/** E-mails the user a new password-setup link (OWNER or ADMIN); older links stop working. */
export function useResendPasswordSetup() {
  return useMutation({
    mutationFn: (email: string) => ok(api.POST('/api/user/resendPasswordSetup', { params: { query: { email } } })),
  });
}

export type CopiedLink = Schemas['CopiedPasswordSetupLink'];

/** A new link handed to the caller instead of e-mailed (super admin, or an OWNER of the user's own tenant); older links stop working. */
export function useCopyPasswordSetupLink() {
  return useMutation({
    mutationFn: (email: string) => ok(api.POST('/api/user/passwordSetupLink', { params: { query: { email } } })),
  });
}

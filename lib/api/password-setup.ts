'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';

/** A password-setup link as the public endpoint describes it. */
export type PasswordSetupLink = { state: 'VALID' | 'EXPIRED' | 'USED' | 'SUPERSEDED'; email: string; expiresAt: string };

const PATH = '/public-api/user/passwordSetup';

export function usePasswordSetupLink(token: string) {
  return useQuery({
    queryKey: ['passwordSetup', token],
    queryFn: ({ signal }) => apiFetch<PasswordSetupLink>(PATH, { query: { token }, signal }),
    enabled: token !== '',
    staleTime: Infinity,
  });
}

export function useCompletePasswordSetup() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => apiFetch<{ email: string }>(PATH, { method: 'POST', body: input }),
  });
}

/** How a resent link travels: MAIL (queued for the SMTP server) or OUTBOX (none configured: it waits). */
export type ResentLink = { email: string; delivery: 'MAIL' | 'OUTBOX' };

/** E-mails the user a new password-setup link (OWNER or ADMIN); older links stop working. */
export function useResendPasswordSetup() {
  return useMutation({
    mutationFn: (email: string) => apiFetch<ResentLink>('/api/user/resendPasswordSetup', { method: 'POST', query: { email } }),
  });
}

export type CopiedLink = { email: string; link: string; expiresAt: string };

/** A new link handed to the caller instead of e-mailed (super admin, or an OWNER of the user's own tenant); older links stop working. */
export function useCopyPasswordSetupLink() {
  return useMutation({
    mutationFn: (email: string) => apiFetch<CopiedLink>('/api/user/passwordSetupLink', { method: 'POST', query: { email } }),
  });
}

'use client';

import type { QueryClient } from '@tanstack/react-query';
import { markSigningOut } from '@/lib/auth/sign-out-flag';
import { serializeTenantCookie } from '@/lib/tenant/tenant-cookie';

/** Ends the console session and goes to the login page, optionally with a reason it shows. */
export async function signOutTo(queryClient: QueryClient, reason?: 'password' | 'deleted'): Promise<void> {
  markSigningOut();
  document.cookie = serializeTenantCookie(null);
  queryClient.clear();
  const { signOut } = await import('next-auth/react');
  await signOut({ callbackUrl: reason ? `/login?reason=${reason}` : '/login' });
}

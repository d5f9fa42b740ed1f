import 'server-only';
import { cookies, headers } from 'next/headers';
import { getToken } from 'next-auth/jwt';
import type { ConsoleToken, SessionUser } from '@/lib/auth/types';

type TokenRequest = Parameters<typeof getToken>[0]['req'];

/**
 * Reads the signed-in user from the session cookie without running next-auth's jwt callback:
 * a server component cannot set cookies, so refreshing here would rotate the refresh token and
 * lose the new one. Refreshing is left to /api/auth/session, which can write the cookie.
 */
export async function readSessionUser(): Promise<SessionUser | null> {
  const cookieStore = await cookies();
  const headerStore = await headers();
  const req = {
    headers: Object.fromEntries(headerStore),
    cookies: Object.fromEntries(cookieStore.getAll().map((c) => [c.name, c.value])),
  } as unknown as TokenRequest;
  const token = (await getToken({ req, secret: process.env.AUTH_SECRET })) as ConsoleToken | null;
  if (!token || token.error || !token.user) return null;

  return token.user;
}

import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import type { ConsoleToken } from '@/lib/auth/types';
import { consoleContentSecurityPolicy, uploadOriginsOf } from '@/lib/security/content-security-policy';

/** Pages anyone may open: the login page and the password-setup page (its link comes by e-mail). */
const PUBLIC_PAGES = /^\/(login|set-password)(\/|$)/;

/**
 * Every console page: a Content-Security-Policy with a fresh nonce (Next.js reads it from the request's policy and
 * puts it on the scripts it renders), and a session for every page but the public ones: everyone else goes to the
 * login page and back afterwards.
 */
export async function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const policy = consoleContentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV === 'development',
    uploadOrigins: uploadOriginsOf(process.env),
  });

  let response: NextResponse;
  if (PUBLIC_PAGES.test(request.nextUrl.pathname) || (await hasSession(request))) {
    const headers = new Headers(request.headers);
    headers.set('content-security-policy', policy);
    response = NextResponse.next({ request: { headers } });
  } else {
    const login = new URL('/login', request.nextUrl);
    const target = request.nextUrl.pathname + request.nextUrl.search;
    if (target !== '/') login.searchParams.set('callbackUrl', target);
    response = NextResponse.redirect(login);
  }
  response.headers.set('content-security-policy', policy);

  return response;
}

async function hasSession(request: NextRequest): Promise<boolean> {
  const token = (await getToken({ req: request, secret: process.env.AUTH_SECRET })) as ConsoleToken | null;

  return Boolean(token?.user && !token.error);
}

export const config = {
  // Every page Next serves; not next-auth, its static assets and the files of public/. The API paths never reach Next.
  matcher: ['/((?!api/auth|_next/static|_next/image|favicon.ico|logo.svg|robots.txt).*)'],
};

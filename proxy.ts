import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import type { ConsoleToken } from '@/lib/auth/types';

/** Console pages need a session; send everyone else to the login page and back afterwards. */
export async function proxy(request: NextRequest) {
  const token = (await getToken({ req: request, secret: process.env.AUTH_SECRET })) as ConsoleToken | null;
  if (token?.user && !token.error) return NextResponse.next();

  const login = new URL('/login', request.nextUrl);
  const target = request.nextUrl.pathname + request.nextUrl.search;
  if (target !== '/') login.searchParams.set('callbackUrl', target);

  return NextResponse.redirect(login);
}

export const config = {
  // Everything Next serves except next-auth, the login and password-setup pages and static assets (public/). The API paths never reach Next.
  matcher: ['/((?!api/auth|login|set-password|_next/static|_next/image|favicon.ico|logo.svg|robots.txt).*)'],
};

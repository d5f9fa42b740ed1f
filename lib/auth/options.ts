import 'server-only';
import type { NextAuthOptions, User as NextAuthUser } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import { CLIENT_ADDRESS_HEADER } from '@/lib/server/api-bridge';
import { fetchMe, passwordGrant, refreshGrant, revokeToken, type TokenResponse } from '@/lib/auth/tokens';
import { ensureFreshToken, tokenFields } from '@/lib/auth/refresh';
import { SIGN_IN_ERRORS, type ConsoleToken, type SessionUser } from '@/lib/auth/types';

/** The default client's refresh tokens live 30 days; the session cookie never outlives them. */
const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

type AuthorizedUser = NextAuthUser & { profile: SessionUser; tokens: TokenResponse };

function signInError(error: string, description: string | null, status: number): string {
  if (status === 429 || error === 'rate_limited') return SIGN_IN_ERRORS.rateLimited;
  if (description === 'totp_required' || error === 'totp_required') return SIGN_IN_ERRORS.totpRequired;
  if (description === 'totp_invalid' || error === 'totp_invalid') return SIGN_IN_ERRORS.totpInvalid;
  if (error === 'invalid_grant') return SIGN_IN_ERRORS.invalidCredentials;

  return SIGN_IN_ERRORS.unavailable;
}

export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S, updateAge: 0 },
  pages: { signIn: '/login', error: '/login' },
  providers: [
    CredentialsProvider({
      id: 'credentials',
      name: 'E-mail and password',
      credentials: {
        email: { label: 'E-mail', type: 'email' },
        password: { label: 'Password', type: 'password' },
        totp: { label: 'One-time code', type: 'text' },
      },
      async authorize(credentials, req) {
        const email = credentials?.email?.trim() ?? '';
        const password = credentials?.password ?? '';
        const totp = credentials?.totp?.replace(/\s+/g, '') || undefined;
        if (!email || !password) throw new Error(SIGN_IN_ERRORS.invalidCredentials);

        const header = req?.headers?.[CLIENT_ADDRESS_HEADER] as string | string[] | undefined;
        const clientAddress = Array.isArray(header) ? header[0] : header;
        const result = await passwordGrant({ username: email, password, totp, clientAddress });
        if (!result.ok) throw new Error(signInError(result.error, result.description, result.status));

        const me = await fetchMe(result.tokens.access_token);
        if (!me) throw new Error(SIGN_IN_ERRORS.unavailable);

        const profile: SessionUser = {
          id: String(me.id),
          email: me.email,
          name: me.name ?? me.email,
          role: me.role,
          customerId: me.customer?.id ?? result.tokens.customer_id ?? null,
          customerName: me.customer?.name ?? null,
          language: me.language ?? null,
        };
        const user: AuthorizedUser = { id: profile.id, email: profile.email, name: profile.name, profile, tokens: result.tokens };

        return user;
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user, trigger, session }) {
      if (user) {
        const { profile, tokens } = user as AuthorizedUser;

        return { sub: profile.id, name: profile.name, email: profile.email, user: profile, ...tokenFields(tokens) };
      }
      // The console saved the user's language through the API and asks the session to follow (useSession().update):
      // only the language is taken from the browser, and only as a short code.
      const current = token as JWT & ConsoleToken;
      const language = trigger === 'update' ? sessionLanguage(session) : undefined;
      const next = language !== undefined && current.user ? { ...current, user: { ...current.user, language } } : current;

      return ensureFreshToken(next, refreshGrant);
    },
    async session({ session, token }) {
      const current = token as JWT & ConsoleToken;

      // Only the user leaves the server; tokens stay in the encrypted cookie.
      return {
        expires: session.expires,
        user: current.error ? undefined : current.user,
        ...(current.error ? { error: current.error } : {}),
      } as typeof session;
    },
  },
  events: {
    async signOut({ token }) {
      const current = token as (JWT & ConsoleToken) | null;
      // Revoking the refresh token retires the whole family, access token included.
      const toRevoke = current?.refreshToken ?? current?.accessToken;
      if (toRevoke) await revokeToken(toRevoke);
    },
  },
};

/** The language an `update({ language })` asks for: a two-letter code or null; anything else is ignored. */
function sessionLanguage(update: unknown): string | null | undefined {
  if (!update || typeof update !== 'object' || !('language' in update)) return undefined;
  const { language } = update as { language: unknown };
  if (language === null) return null;

  return typeof language === 'string' && /^[a-z]{2}$/.test(language) ? language : undefined;
}

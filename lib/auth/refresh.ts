import type { ConsoleToken } from '@/lib/auth/types';

/** Refresh this long before the access token expires, so a request never carries an expiring token. */
export const REFRESH_MARGIN_MS = 60_000;

export type RefreshedTokens = { access_token: string; refresh_token: string; expires_in: number };
export type RefreshOutcome = { ok: true; tokens: RefreshedTokens } | { ok: false; status: number };

export function tokenFields(
  tokens: RefreshedTokens,
  now = Date.now(),
): Pick<ConsoleToken, 'accessToken' | 'refreshToken' | 'accessTokenExpires'> {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    accessTokenExpires: now + tokens.expires_in * 1000,
  };
}

/**
 * The session token as it should be after this request: unchanged while the access token is fresh,
 * rotated shortly before it expires, marked failed (tokens dropped) when the refresh is refused.
 */
export async function ensureFreshToken<T extends ConsoleToken>(
  token: T,
  refresh: (refreshToken: string) => Promise<RefreshOutcome>,
  now = Date.now(),
): Promise<T> {
  if (token.error) return token;
  if (token.accessTokenExpires && now < token.accessTokenExpires - REFRESH_MARGIN_MS) return token;
  if (!token.refreshToken) return { ...token, accessToken: undefined, error: 'RefreshFailed' };

  const result = await refresh(token.refreshToken);
  if (result.ok) return { ...token, ...tokenFields(result.tokens, now), error: undefined };
  // A network blip, rate limit or server error must not sign the user out; the next request tries again.
  const isTransient = result.status === 0 || result.status === 429 || result.status >= 500;
  if (isTransient) return token;

  return { ...token, accessToken: undefined, refreshToken: undefined, accessTokenExpires: undefined, error: 'RefreshFailed' };
}

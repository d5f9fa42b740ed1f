import type { Role } from '@/lib/api/types';

/** What the console knows about the signed-in user; safe to send to the browser. */
export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  customerId: number | null;
  customerName: string | null;
  /** The user's `language` (spec 3): the console's locale when it ships it (i18n/locales.ts). */
  language?: string | null;
};

/**
 * The next-auth JWT (encrypted in the httpOnly session cookie). The API reads `accessToken` from it,
 * so these names are a contract with server/auth.
 */
export type ConsoleToken = {
  accessToken?: string;
  refreshToken?: string;
  /** epoch ms */
  accessTokenExpires?: number;
  user?: SessionUser;
  error?: 'RefreshFailed';
};

/** Errors authorize() raises; the login page maps them to messages. */
export const SIGN_IN_ERRORS = {
  invalidCredentials: 'invalid_credentials',
  totpRequired: 'totp_required',
  totpInvalid: 'totp_invalid',
  rateLimited: 'rate_limited',
  unavailable: 'unavailable',
} as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[keyof typeof SIGN_IN_ERRORS];

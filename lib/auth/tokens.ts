import 'server-only';
import { callApi } from '@/lib/server/api-bridge';
import type { Me } from '@/lib/api/types';

export type TokenResponse = {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  refresh_total_validity_seconds: number;
  jwt_access_token: string;
  customer_id: number | null;
};

type GrantFailure = {
  ok: false;
  status: number;
  error: string;
  description: string | null;
};

export type GrantResult = { ok: true; tokens: TokenResponse } | GrantFailure;

const CLIENT_ID = 'default-client';

function basicAuth(): string {
  const secret = process.env.OAUTH_DEFAULT_CLIENT_SECRET ?? '';

  return `Basic ${Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64')}`;
}

async function postForm(path: string, form: Record<string, string>, clientAddress?: string): Promise<Response> {
  return callApi(
    path,
    {
      method: 'POST',
      headers: {
        Authorization: basicAuth(),
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    },
    { clientAddress },
  );
}

async function grant(form: Record<string, string>, clientAddress?: string): Promise<GrantResult> {
  let res: Response;
  try {
    res = await postForm('/oauth/token', form, clientAddress);
  } catch (err) {
    return { ok: false, status: 0, error: 'unavailable', description: err instanceof Error ? err.message : null };
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok && body && typeof body.access_token === 'string') return { ok: true, tokens: body as TokenResponse };

  return {
    ok: false,
    status: res.status,
    error: typeof body?.error === 'string' ? body.error : res.status === 429 ? 'rate_limited' : 'server_error',
    description: typeof body?.error_description === 'string' ? body.error_description : null,
  };
}

export function passwordGrant(input: { username: string; password: string; totp?: string; clientAddress?: string }): Promise<GrantResult> {
  const form: Record<string, string> = { grant_type: 'password', username: input.username, password: input.password };
  if (input.totp) form.totp = input.totp;

  return grant(form, input.clientAddress);
}

/**
 * Refresh tokens rotate and reusing a retired one revokes the whole family (DECISIONS §5). Several
 * requests carrying the same old cookie (parallel queries, two tabs) can arrive at once, so each old
 * refresh token is exchanged exactly once and its result shared for a short while.
 */
const inFlight = new Map<string, Promise<GrantResult>>();
const REUSE_WINDOW_MS = 30_000;

export function refreshGrant(refreshToken: string): Promise<GrantResult> {
  const existing = inFlight.get(refreshToken);
  if (existing) return existing;
  const pending = grant({ grant_type: 'refresh_token', refresh_token: refreshToken });
  inFlight.set(refreshToken, pending);
  void pending.finally(() => {
    setTimeout(() => inFlight.delete(refreshToken), REUSE_WINDOW_MS).unref?.();
  });

  return pending;
}

export async function revokeToken(token: string): Promise<boolean> {
  try {
    const res = await postForm('/oauth/revoke', { token });

    return res.ok;
  } catch {
    return false;
  }
}

export async function fetchMe(accessToken: string): Promise<Me | null> {
  const res = await callApi('/api/v2/user/me', {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
  });
  if (!res.ok) return null;

  return (await res.json()) as Me;
}

import { describe, expect, it, vi } from 'vitest';
import { ensureFreshToken, REFRESH_MARGIN_MS } from '@/lib/auth/refresh';
import type { ConsoleToken } from '@/lib/auth/types';

const now = 1_800_000_000_000;
const base: ConsoleToken = { accessToken: 'a1', refreshToken: 'r1', accessTokenExpires: now + 20 * 60_000 };

describe('ensureFreshToken', () => {
  it('keeps a fresh token without calling the API', async () => {
    const refresh = vi.fn();
    await expect(ensureFreshToken(base, refresh, now)).resolves.toBe(base);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('rotates both tokens shortly before expiry', async () => {
    const token = { ...base, accessTokenExpires: now + REFRESH_MARGIN_MS - 1 };
    const refresh = vi.fn(async () => ({ ok: true as const, tokens: { access_token: 'a2', refresh_token: 'r2', expires_in: 1200 } }));
    const next = await ensureFreshToken(token, refresh, now);
    expect(refresh).toHaveBeenCalledWith('r1');
    expect(next).toMatchObject({ accessToken: 'a2', refreshToken: 'r2', accessTokenExpires: now + 1_200_000 });
    expect(next.error).toBeUndefined();
  });

  it('marks the session failed and drops the tokens when the refresh is refused', async () => {
    const token = { ...base, accessTokenExpires: now - 1 };
    const next = await ensureFreshToken(token, async () => ({ ok: false as const, status: 400 }), now);
    expect(next).toMatchObject({ error: 'RefreshFailed', accessToken: undefined, refreshToken: undefined });
  });

  it('keeps the session through transient failures', async () => {
    const token = { ...base, accessTokenExpires: now - 1 };
    for (const status of [0, 429, 502]) {
      await expect(ensureFreshToken(token, async () => ({ ok: false as const, status }), now)).resolves.toBe(token);
    }
  });

  it('does not retry a session already marked failed', async () => {
    const refresh = vi.fn();
    const token: ConsoleToken = { error: 'RefreshFailed' };
    await expect(ensureFreshToken(token, refresh, now)).resolves.toBe(token);
    expect(refresh).not.toHaveBeenCalled();
  });
});

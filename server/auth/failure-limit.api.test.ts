import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodes } from '@/server/test/totp';
import { basic, createTestContext, TEST_CLIENT_SECRET, TEST_PASSWORD, type TestContext } from '@/server/test/harness';

/**
 * The failure limiter under concurrency (issue 10 point 2): attempts are counted before the secret is
 * checked, so a burst of parallel guesses checks exactly the allowance and no more. The 400/429 split
 * counts the checks: every answer other than 429 is a secret that was verified.
 */

const MAX = 10;
let t: TestContext;
let addressCount = 0;

beforeAll(async () => {
  t = await createTestContext({ AUTH_MAX_FAILURES: String(MAX) });
});
afterAll(() => t.close());

/** Every test signs in from its own client address (the console bridge's address binding), so the per-address counts do not mix. */
function newAddress(): string {
  addressCount += 1;

  return `198.51.100.${addressCount}`;
}

async function grant(username: string, password: string, address: string) {
  const res = await t.app.request(
    '/oauth/token',
    {
      method: 'POST',
      headers: { authorization: basic('default-client', TEST_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    },
    { bridgeClientAddress: address },
  );

  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;

  return counts;
}

describe('password grant under concurrent guesses', () => {
  it('checks exactly AUTH_MAX_FAILURES of 100 simultaneous wrong passwords for one account, then 429; the right password then gets no token', async () => {
    const user = await t.factories.user();
    const address = newAddress();
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => grant(user.email, `wrong-guess-${i}`, address)));
    expect(tally(burst.map((r) => r.status))).toEqual({ 400: MAX, 429: 100 - MAX });
    for (const r of burst.filter((r) => r.status === 400))
      expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: 'Bad credentials' });

    // After the limit, a burst with the right password among wrong ones: all refused, no token anywhere.
    const after = await Promise.all(
      Array.from({ length: 20 }, (_, i) => grant(user.email, i === 13 ? TEST_PASSWORD : `late-guess-${i}`, address)),
    );
    expect(after.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(after.some((r) => 'access_token' in r.body)).toBe(false);
    expect((await grant(user.email, TEST_PASSWORD, address)).status).toBe(429);
  });

  it('checks exactly five times the allowance per client address across many accounts', async () => {
    const address = newAddress();
    const emails = await Promise.all(Array.from({ length: 70 }, async () => (await t.factories.user()).email));
    const burst = await Promise.all(emails.map((email) => grant(email, 'wrong-password', address)));
    expect(tally(burst.map((r) => r.status))).toEqual({ 400: MAX * 5, 429: 70 - MAX * 5 });
    // Another address is not limited.
    expect((await grant(emails[0]!, TEST_PASSWORD, newAddress())).status).toBe(200);
  });

  it('does not count successful sign-ins: each gives its slot back, and a success clears the account', async () => {
    const user = await t.factories.user();
    const address = newAddress();
    await grant(user.email, 'one-wrong-guess', address);
    // More sign-ins than the address allowance (5 × MAX): every one succeeds.
    for (let i = 0; i < 5 * MAX + 3; i++) expect((await grant(user.email, TEST_PASSWORD, address)).status).toBe(200);
    // The account starts from zero again: the whole allowance of wrong guesses is checked.
    const wrong = await Promise.all(Array.from({ length: MAX + 5 }, (_, i) => grant(user.email, `guess-${i}`, address)));
    expect(tally(wrong.map((r) => r.status))).toEqual({ 400: MAX, 429: 5 });
  });

  it('gives the slot back when the password was right but sign-in is refused for another reason (second factor missing)', async () => {
    const secret = new Secret({ size: 20 });
    const user = await t.factories.user({ use2FA: true, totpSecret: secret.base32 });
    const address = newAddress();
    for (let i = 0; i < 2 * MAX; i++)
      expect((await grant(user.email, TEST_PASSWORD, address)).body.error_description).toBe('totp_required');
  });
});

describe('POST /api/user/password under concurrent guesses', () => {
  it('checks exactly AUTH_MAX_FAILURES wrong old passwords of 40 at once, then 429', async () => {
    const { token } = await t.actor('VIEWER');
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.request('POST', `/api/user/password?oldPassword=wrong-${i}-guess&newPassword=another-long-password`, { token }),
      ),
    );
    expect(tally(burst.map((r) => r.status))).toEqual({ 400: MAX, 429: 40 - MAX });
    expect(burst.filter((r) => r.status === 400).every((r) => r.body.key === 'user.error.oldPasswordInvalid')).toBe(true);
    const right = await t.request(
      'POST',
      `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=another-long-password`,
      { token },
    );
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('second factor of protected operations under concurrent guesses', () => {
  it('checks exactly AUTH_MAX_FAILURES wrong codes of 40 at once, then 429', async () => {
    const secret = new Secret({ size: 20 });
    const user = await t.factories.user({ use2FA: true, totpSecret: secret.base32 });
    const signIn = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }, 'default-client', {
      'x-totp': await totpCodes(secret.base32).next(),
    });
    const token = signIn.body.access_token as string;
    const current = new TOTP({ secret, digits: 6, period: 30 });
    // Codes that match no step the server accepts (±1 step around now).
    const accepted = new Set([-30_000, 0, 30_000].map((d) => current.generate({ timestamp: Date.now() + d })));
    const wrongCodes = Array.from({ length: 200 }, (_, i) => String(100_000 + i * 4_999).slice(0, 6)).filter((c) => !accepted.has(c));
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.request('POST', `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=another-long-password`, {
          token,
          headers: { 'x-totp': wrongCodes[i]! },
        }),
      ),
    );
    expect(tally(burst.map((r) => r.status))).toEqual({ 403: MAX, 429: 40 - MAX });
    expect(burst.filter((r) => r.status === 403).every((r) => r.body.key === 'auth.error.totpInvalid')).toBe(true);
  });
});

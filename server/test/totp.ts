import { Secret, TOTP } from 'otpauth';

const PERIOD_MS = 30_000;

/**
 * Successive one-time codes for one secret, for tests that sign in and confirm several operations: the
 * server accepts each code once and never an older one (server/auth/totp.ts), so each call answers the
 * code of a later time step than the last, within the ±1 step the server accepts, waiting for the next
 * period only when that window is spent.
 */
export function totpCodes(secretBase32: string, options: { safetyMs?: number } = {}) {
  // A code of the previous step is used only while this much of the current step remains (it expires with it).
  const safetyMs = options.safetyMs ?? 3_000;
  const totp = new TOTP({
    secret: Secret.fromBase32(secretBase32.replace(/\s+/g, '')),
    digits: 6,
    period: PERIOD_MS / 1000,
    algorithm: 'SHA1',
  });
  let last = Number.NEGATIVE_INFINITY;

  return {
    async next(): Promise<string> {
      for (;;) {
        const now = Date.now();
        const current = Math.floor(now / PERIOD_MS);
        const previousUsable = (current + 1) * PERIOD_MS - now > safetyMs;
        const step = [previousUsable ? current - 1 : undefined, current, current + 1].find((s) => s !== undefined && s > last);
        if (step !== undefined) {
          last = step;

          return totp.generate({ timestamp: step * PERIOD_MS });
        }
        await new Promise((resolve) => setTimeout(resolve, (current + 1) * PERIOD_MS - now + 50));
      }
    },
  };
}

import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Executor } from '@/server/db/client';
import { users } from '@/server/modules/users/users.table';

const PERIOD_SECONDS = 30;

/** The time step a 6-digit code belongs to (±1 step of clock drift), or undefined when it matches none. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  const token = code.trim();
  if (!/^\d{6}$/.test(token)) return undefined;
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: PERIOD_SECONDS, algorithm: 'SHA1' });
  const delta = totp.validate({ token, timestamp: now, window: 1 });

  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Checks a code and spends it (RFC 6238 §5.2): the user's last accepted step is raised in one conditional
 * UPDATE, so a code, or an older one, is accepted once even under concurrent requests.
 */
export async function consumeTotp(db: Executor, userId: string, secretBase32: string, code: string): Promise<boolean> {
  const step = totpStep(secretBase32, code);
  if (step === undefined) return false;
  const spent = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });

  return spent.length > 0;
}

import { Secret, TOTP } from 'otpauth';
import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/** Where a user's second factor is kept: the users module implements it (its manifest plugs it in). */
export type SecondFactorStore = {
  /** Whether the user uses a second factor, and its secret. */
  secondFactorOf: (db: Executor, userId: string) => Promise<{ use2FA: boolean; totpSecret: string | null } | undefined>;
  /** Raises the user's last accepted step to `step` when it is below (one conditional write); false when it is not. */
  spendStep: (db: Executor, userId: string, step: number) => Promise<boolean>;
};

export const secondFactorStores = definePlugPoint<SecondFactorStore>('secondFactorStore', () => 'secondFactorStore');

export function secondFactorStore(): SecondFactorStore {
  const store = secondFactorStores.items()[0];
  if (!store) throw new Error('No second-factor store is installed (the users module plugs it in)');

  return store;
}

const PERIOD_SECONDS = 30;

/** The time step a 6-digit code belongs to (±1 step of clock drift), or undefined when it matches none. */
function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
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
  return secondFactorStore().spendStep(db, userId, step);
}

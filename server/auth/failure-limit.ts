import type { Config } from '@/server/config';
import type { Executor } from '@/server/db/client';
import { clearFailures, findFailures, recordFailures } from '@/server/modules/oauth/oauth.queries';

/**
 * Failed secret checks (sign-in passwords and codes, the old password of a password change),
 * counted per subject in the database so every instance shares them. Subjects are
 * `account:<email>`, `address:<ip>` or `password:<userId>`.
 */
export async function failureLimitRetryAfter(db: Executor, config: Config, subjects: string[]): Promise<number> {
  const { maxFailures, windowSeconds } = config.authRateLimit;
  const rows = await findFailures(db, subjects);
  const now = Date.now();
  let retryAfter = 0;
  for (const row of rows) {
    // Addresses are shared (offices, NAT): they get five times the per-account allowance.
    const limit = row.subject.startsWith('address:') ? maxFailures * 5 : maxFailures;
    const windowEnds = row.windowStart.getTime() + windowSeconds * 1000;
    if (row.failures >= limit && windowEnds > now) retryAfter = Math.max(retryAfter, Math.ceil((windowEnds - now) / 1000));
  }

  return retryAfter;
}

export function recordFailure(db: Executor, config: Config, subjects: string[]): Promise<void> {
  return recordFailures(db, subjects, config.authRateLimit.windowSeconds);
}

export function clearFailure(db: Executor, subject: string): Promise<void> {
  return clearFailures(db, subject);
}

import type { Config } from '@/server/config';
import type { Executor } from '@/server/db/client';
import { claimFailureSlot, clearFailures, releaseFailureSlot } from './failure-limit.queries';

/**
 * Failed secret checks (sign-in passwords and codes, second factors of protected operations, the old
 * password of a password change, password-setup links), counted per subject in the database so every
 * instance shares them. Subjects are `account:<email>`, `address:<ip>`, `password:<userId>`,
 * `totp:<userId>` or `passwordSetup:<ip>`.
 *
 * An attempt is counted BEFORE the secret is checked: one conditional UPSERT per subject claims a slot
 * and answers whether the subject is over its limit, so concurrent attempts can never check more
 * secrets than the limit allows (checking first and counting afterwards let 100 parallel guesses
 * through). A wrong secret keeps its slot: that is the counted failure. A right one gives it back.
 * The same mechanism, with a policy of its own, counts device registrations per address (every one
 * keeps its slot), device claims (`claim.user:<id>`, `claim.tenant:<id>`: a wrong code keeps its slot) and
 * datasource writes without credentials (`displayWrite.address:<network>`, `displayWrite.datasource:<id>`: every
 * write keeps its slot).
 */

/** Addresses are shared (offices, NAT): they get five times the per-account allowance. */
function limitOf(config: Config, subject: string): number {
  const { maxFailures } = config.authRateLimit;

  return subject.startsWith('address:') ? maxFailures * 5 : maxFailures;
}

type Claimed = { subject: string; limit: number; windowStart: Date };

type Attempt = {
  /**
   * The secret was right, or was not checked after all (a refusal for another reason): the slots are
   * given back, and the `clear` subjects start over (a successful sign-in clears the account's count).
   */
  release(db: Executor, options?: { clear?: string[] }): Promise<void>;
};

export type AttemptClaim = { allowed: true; attempt: Attempt } | { allowed: false; retryAfterSeconds: number };

/**
 * A limit of its own, fixed by the spec rather than by `AUTH_MAX_FAILURES` (device registrations per
 * address, wrong activation codes per user and tenant). Windows are at most a day: the clean-up job drops
 * windows older than that (MAX_WINDOW_SECONDS).
 */
export type AttemptPolicy = { limit: number; windowSeconds: number };

/** No failure window lasts longer; older rows are dropped by the token clean-up job. */
export const MAX_WINDOW_SECONDS = 24 * 3600;

/**
 * Claims one attempt for each subject, in order. When a subject is over its limit, the slots claimed
 * so far are given back and the answer is the seconds until that subject's window ends (429).
 * `policy` replaces the configured sign-in limits for every subject of this claim.
 */
export async function claimAttempt(db: Executor, config: Config, subjects: string[], policy?: AttemptPolicy): Promise<AttemptClaim> {
  if (policy && !(policy.limit >= 1 && policy.windowSeconds > 0 && policy.windowSeconds <= MAX_WINDOW_SECONDS))
    throw new Error(`Invalid attempt policy ${JSON.stringify(policy)}`);
  const windowSeconds = policy?.windowSeconds ?? config.authRateLimit.windowSeconds;
  const claimed: Claimed[] = [];
  for (const subject of subjects) {
    const limit = policy?.limit ?? limitOf(config, subject);
    const slot = await claimFailureSlot(db, { subject, limit, windowSeconds });
    if (slot.failures > limit) {
      await giveBack(db, claimed);

      return { allowed: false, retryAfterSeconds: secondsUntilWindowEnds(slot.windowStart, windowSeconds) };
    }
    claimed.push({ subject, limit, windowStart: slot.windowStart });
  }

  return {
    allowed: true,
    attempt: {
      async release(releaseDb, options = {}) {
        const clear = new Set(options.clear ?? []);
        for (const subject of clear) await clearFailures(releaseDb, subject);
        await giveBack(
          releaseDb,
          claimed.filter((c) => !clear.has(c.subject)),
        );
      },
    },
  };
}

/** The seconds until a window that started at `windowStart` ends (a 429's `Retry-After`): at least 1. */
export function secondsUntilWindowEnds(windowStart: Date, windowSeconds: number): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
}

async function giveBack(db: Executor, claimed: Claimed[]): Promise<void> {
  for (const { subject, limit, windowStart } of claimed) await releaseFailureSlot(db, { subject, limit, windowStart });
}

export { claimFailureSlotsStatement } from './failure-limit.queries';

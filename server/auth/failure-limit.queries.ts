import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { authFailures } from './failure-limit.table';

/**
 * Claims one attempt slot of `subject` in one statement: a new window when the old one has passed,
 * else one more in it. The count stops at `limit + 1`, which means "over the limit" (the claim is
 * refused and takes nothing). The row lock serialises concurrent claims of one subject.
 */
export async function claimFailureSlot(db: Executor, input: { subject: string; limit: number; windowSeconds: number }) {
  const expired = sql`${authFailures.windowStart} <= now() - make_interval(secs => ${input.windowSeconds})`;
  const rows = await db
    .insert(authFailures)
    .values({ subject: input.subject, failures: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: authFailures.subject,
      set: {
        failures: sql`case when ${expired} then 1 else least(${authFailures.failures} + 1, ${input.limit + 1}::int) end`,
        windowStart: sql`case when ${expired} then now() else ${authFailures.windowStart} end`,
      },
    })
    .returning({ failures: authFailures.failures, windowStart: authFailures.windowStart });

  return rows[0]!;
}

/**
 * Gives a claimed slot back, in the window it was claimed in only. A count past the limit stands for
 * the limit (refused claims took nothing), so giving back after a refusal still counts right.
 */
export async function releaseFailureSlot(db: Executor, input: { subject: string; limit: number; windowStart: Date }) {
  await db
    .update(authFailures)
    .set({ failures: sql`greatest(least(${authFailures.failures}, ${input.limit}::int) - 1, 0)` })
    .where(and(eq(authFailures.subject, input.subject), eq(authFailures.windowStart, input.windowStart)));
}

export async function clearFailures(db: Executor, subject: string) {
  await db.delete(authFailures).where(eq(authFailures.subject, subject));
}

/** Drops failure windows that have passed (the token clean-up job). */
export async function deleteOldFailureWindows(db: Executor, windowSeconds: number) {
  await db.delete(authFailures).where(lt(authFailures.windowStart, sql`now() - make_interval(secs => ${windowSeconds})`));
}

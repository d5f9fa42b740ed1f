import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { authFailures } from './failure-limit.table';

/**
 * Claims one attempt slot of `subject` in one statement: a new window when the old one has passed,
 * else one more in it. The count stops at `limit + 1`, which means "over the limit" (the claim is
 * refused and takes nothing). The row lock serialises concurrent claims of one subject.
 */
export async function claimFailureSlot(db: Executor, input: FailureSlotClaim): Promise<{ failures: number; windowStart: Date }> {
  const [row] = await execRows<{ failures: number; window_start_ms: number }>(db, claimFailureSlotStatement(input));

  return { failures: row!.failures, windowStart: new Date(row!.window_start_ms) };
}

type FailureSlotClaim = { subject: string; limit: number; windowSeconds: number };

/** The claim of `claimFailureSlot` as a statement: answers `failures` and `window_start_ms` (epoch milliseconds). */
function claimFailureSlotStatement(input: FailureSlotClaim): SQL {
  const expired = sql`${authFailures.windowStart} <= now() - make_interval(secs => ${input.windowSeconds})`;

  return sql`insert into ${authFailures} (subject, failures, window_start) values (${input.subject}, 1, now())
    on conflict (subject) do update set
      failures = case when ${expired} then 1 else least(${authFailures.failures} + 1, ${input.limit + 1}::int) end,
      window_start = case when ${expired} then now() else ${authFailures.windowStart} end
    returning failures, (extract(epoch from window_start) * 1000)::float8 as window_start_ms`;
}

/**
 * Claims several slots of several subjects in one statement, for a caller that makes it a part (a CTE) of its own
 * statement (the webhook triggers of a group commit). `rows` is a FROM item of distinct `subject` (text) and `n` (int,
 * the slots wanted); rows are written in subject order, so concurrent claims lock alike and never deadlock. Answers per
 * subject `subject`, `failures` and `window_start_ms`: the k-th (1-based) of a subject's n claims holds slot
 * `failures - n + k`, allowed when that is at most `limit`, as n claims of `claimFailureSlotStatement` one after the
 * other would. A count past the limit stands for `limit + 1` before the n are added (the count `claimFailureSlot` stops
 * at), so the stored count stays below `limit + 1 + n`.
 */
export function claimFailureSlotsStatement(input: { rows: SQL; limit: number; windowSeconds: number }): SQL {
  const expired = sql`${authFailures.windowStart} <= now() - make_interval(secs => ${input.windowSeconds})`;

  return sql`insert into ${authFailures} (subject, failures, window_start) select subject, n, now() from ${input.rows} order by subject
    on conflict (subject) do update set
      failures = case when ${expired} then excluded.failures else least(${authFailures.failures}, ${input.limit + 1}::int) + excluded.failures end,
      window_start = case when ${expired} then now() else ${authFailures.windowStart} end
    returning subject, failures, (extract(epoch from window_start) * 1000)::float8 as window_start_ms`;
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

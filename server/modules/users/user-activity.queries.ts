import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { users } from './users.table';

/**
 * A user's activity: `lastLogin` and `loginCount` at sign-in, `lastActivity` and `presenceTimeSeconds`
 * from authenticated requests. These are not changes to the user: no audit entry, nothing else moves.
 */

/** Authenticated requests record activity at most this often per user. */
export const ACTIVITY_WRITE_INTERVAL_SECONDS = 60;
/** A gap between two recorded activities longer than this starts a new presence period and adds nothing. */
const PRESENCE_IDLE_SECONDS = 300;

const writeInterval = sql.raw(`interval '${ACTIVITY_WRITE_INTERVAL_SECONDS} seconds'`);
const idleInterval = sql.raw(`interval '${PRESENCE_IDLE_SECONDS} seconds'`);

/** True when the user's last recorded activity is older than the write interval (or there is none). */
export const activityDue: SQL<boolean> = sql<boolean>`(${users.lastActivity} is null or ${users.lastActivity} < now() - ${writeInterval})`;

/** The presence time after an activity now: the whole seconds since the previous one when that gap is below the idle threshold. */
const presenceAfterActivityNow = sql`${users.presenceTimeSeconds} + case
  when ${users.lastActivity} > now() - ${idleInterval} then greatest(0, floor(extract(epoch from now() - ${users.lastActivity})))::bigint
  else 0 end`;

/** A successful sign-in: one more login, and it is activity too. */
export async function recordSignIn(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({
      loginCount: sql`${users.loginCount} + 1`,
      lastLogin: sql`now()`,
      lastActivity: sql`now()`,
      presenceTimeSeconds: presenceAfterActivityNow,
    })
    .where(eq(users.id, userId));
}

/**
 * Activity seen on an authenticated request. One conditional statement: when another request of the same
 * user wrote within the interval it changes nothing, so concurrent requests write once.
 */
export async function recordRequestActivity(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastActivity: sql`now()`, presenceTimeSeconds: presenceAfterActivityNow })
    .where(and(eq(users.id, userId), or(isNull(users.lastActivity), lt(users.lastActivity, sql`now() - ${writeInterval}`))));
}

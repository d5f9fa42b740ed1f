import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { mailMessages, type MailMessageRow } from './mail.table';

export async function insertMessage(db: Executor, values: typeof mailMessages.$inferInsert): Promise<void> {
  await db.insert(mailMessages).values(values);
}

/**
 * Claims up to `limit` due PENDING messages for one sender: their attempt is counted and their due
 * time moved to the end of a lease, in one statement. Concurrent senders skip each other's rows
 * (SKIP LOCKED); a sender that dies mid-send leaves the message due again when the lease ends.
 */
export async function claimDueMessages(db: Executor, input: { now: Date; leaseUntil: Date; limit: number }): Promise<MailMessageRow[]> {
  const due = db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.status, 'PENDING'), sql`${mailMessages.nextAttemptAt} <= ${input.now.toISOString()}`))
    .orderBy(mailMessages.nextAttemptAt)
    .limit(input.limit)
    .for('update', { skipLocked: true });

  return db
    .update(mailMessages)
    .set({ attempts: sql`${mailMessages.attempts} + 1`, nextAttemptAt: input.leaseUntil })
    .where(sql`${mailMessages.id} in ${due}`)
    .returning();
}

export async function markSent(db: Executor, id: string, sentAt: Date): Promise<void> {
  await db.update(mailMessages).set({ status: 'SENT', sentAt, lastError: null }).where(eq(mailMessages.id, id));
}

/** A failed attempt: due again at `retryAt`, or FAILED for good when `retryAt` is undefined. */
export async function markAttemptFailed(db: Executor, id: string, input: { error: string; retryAt?: Date }): Promise<void> {
  await db
    .update(mailMessages)
    .set(input.retryAt ? { lastError: input.error, nextAttemptAt: input.retryAt } : { lastError: input.error, status: 'FAILED' })
    .where(eq(mailMessages.id, id));
}

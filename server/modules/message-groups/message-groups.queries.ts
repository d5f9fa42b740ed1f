import { and, eq } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { messageGroups, type MessageGroupRow } from './message-groups.table';

/** The group `id` within the scope, locked until commit: updates and deletes of one group serialise. */
export async function lockMessageGroup(db: Executor, scope: TenantScope, id: number): Promise<MessageGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(messageGroups)
    .where(and(eq(messageGroups.id, id), scopeCondition(scope, messageGroups.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function insertMessageGroup(db: Executor, values: typeof messageGroups.$inferInsert): Promise<MessageGroupRow> {
  const [row] = await db.insert(messageGroups).values(values).returning();

  return row!;
}

export async function updateMessageGroup(
  db: Executor,
  row: MessageGroupRow,
  values: Partial<typeof messageGroups.$inferInsert>,
): Promise<void> {
  await db
    .update(messageGroups)
    .set({ ...values, lastSavedAt: new Date() })
    .where(and(eq(messageGroups.id, row.id), eq(messageGroups.customerId, row.customerId)));
}

/** Deletes the group (its messages go with it by their foreign key) and its team assignments. */
export async function deleteMessageGroup(db: Executor, row: MessageGroupRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'messageGroup'),
        eq(teamAssignments.resourceId, String(row.id)),
      ),
    );
  await db.delete(messageGroups).where(and(eq(messageGroups.id, row.id), eq(messageGroups.customerId, row.customerId)));
}

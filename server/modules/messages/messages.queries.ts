import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { playsAnyOf, type PlayedItemTables } from '@/server/modules/campaigns';
import { campaignMessageGroupAssignments } from '@/server/modules/campaigns/campaigns.table';
import { uuidArrayParam } from '@/server/db/sql';
import {
  messageContentAssignments,
  messageContentGroupAssignments,
  messageFileAssignments,
  messageFileFolderAssignments,
  messages,
  type MessageRow,
} from './messages.table';

export async function insertMessage(db: Executor, values: typeof messages.$inferInsert): Promise<MessageRow> {
  const [row] = await db.insert(messages).values(values).returning();

  return row!;
}

export type MessageChanges = Partial<
  Omit<typeof messages.$inferInsert, 'id' | 'customerId' | 'messageGroupId' | 'type' | 'deviceSelectionMode' | 'createdDate'>
>;

export async function updateMessageRow(db: Executor, row: Pick<MessageRow, 'id' | 'customerId'>, values: MessageChanges): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db
    .update(messages)
    .set(values)
    .where(and(eq(messages.id, row.id), eq(messages.customerId, row.customerId)));
}

/** Deletes one message (its assignments go by cascade). */
export async function deleteMessageRow(db: Executor, row: Pick<MessageRow, 'id' | 'customerId'>): Promise<void> {
  await db.delete(messages).where(and(eq(messages.id, row.id), eq(messages.customerId, row.customerId)));
}

/** One message of `where` with whether the caller sees and writes it (through its group's teams); row-locked. */
export async function lockMessage(db: Executor, input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL }) {
  const [found] = await db
    .select({ row: messages, visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(messages)
    .where(input.where)
    .limit(1)
    .for('update', { of: messages });

  return found;
}

/** The group `id` of `customerId`, share-locked so it cannot be deleted while a message is added to it. */
export async function findGroupOf(db: Executor, customerId: number, id: number): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: messageGroups.id })
    .from(messageGroups)
    .where(and(eq(messageGroups.id, id), eq(messageGroups.customerId, customerId)))
    .limit(1)
    .for('share');

  return row;
}

const messageItemTables: PlayedItemTables = {
  ownerColumn: 'message_id',
  content: messageContentAssignments,
  contentGroups: messageContentGroupAssignments,
  files: messageFileAssignments,
  fileFolders: messageFileFolderAssignments,
};

/**
 * A subquery of the ids of the MESSAGE_GROUP channels of `customerId` with a sub-channel that may play any of
 * `contentIds` (its `contentId` or `playsAnyOf`) or `fileIds`: the manifest push when what sub-channels play changes.
 */
export function messageChannelsPlayingQuery(customerId: number, contentIds: readonly string[], fileIds: readonly string[]): SQL {
  return sql`select ga.campaign_id from ${campaignMessageGroupAssignments} ga join ${messages} o on o.message_group_id = ga.message_group_id
    where o.customer_id = ${customerId} and (o.content_id = any(${uuidArrayParam(contentIds)}) or ${playsAnyOf(messageItemTables, customerId, contentIds, fileIds)})`;
}

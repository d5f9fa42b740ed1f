import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows } from '@/server/db/sql';
import {
  campaignOwner,
  candidateContent,
  candidateFile,
  contentSource,
  fileSource,
  itemsStatement,
  messageOwner,
  type ContentItemRow,
  type FileItemRow,
  type OwnerRow,
} from '@/server/modules/display/playback-items.queries';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { messages } from '@/server/modules/messages/messages.table';
import type { CandidateContent, CandidateFile } from '@/server/playback/resolver';
import type { ScheduleIntervals } from '@/server/playback/schedule-rules.schemas';
import { campaignMessageGroupAssignments } from './campaigns.table';

/*
 * What the next airing needs of a campaign's items (and of its messages' items): not every item row, only
 * whether content exists and the distinct kinds and validities of its files, aggregated in SQL over the
 * statements the playback loader runs, so "what a campaign plays" has one definition.
 */

/** An owner's items reduced to what decides when any of them is playable (ids and names are not kept). */
export type ItemFacts = { contents: CandidateContent[]; files: CandidateFile[] };

/** The item facts of campaigns or messages of one tenant: two statements (three with quick filters) for all of them. */
export async function loadItemFacts(db: Executor, customerId: number, rows: readonly OwnerRow[], owner: typeof campaignOwner): Promise<Map<number, ItemFacts>> {
  const facts = new Map<number, ItemFacts>(rows.map((r) => [Number(r.id), { contents: [], files: [] }]));
  const ids = rows.map((r) => Number(r.id));
  const [contentItems, fileItems] = await Promise.all([itemsStatement(db, customerId, rows, ids, contentSource, owner), itemsStatement(db, customerId, rows, ids, fileSource, owner)]);
  if (!contentItems || !fileItems) return facts;
  const [contentRows, fileRows] = await Promise.all([
    execRows<ContentItemRow>(
      db,
      sql`select distinct i."ownerId", '' as id, '' as name, 0 as weight, 'content' as "deviceContentType", 1 as "pageCount" from (${contentItems}) i`,
    ),
    execRows<FileItemRow>(
      db,
      sql`select distinct i."ownerId", '' as id, '' as name, 0 as weight, i."contentType", null as "durationSeconds", i."validFrom", i."validTo" from (${fileItems}) i`,
    ),
  ]);
  for (const row of contentRows) facts.get(Number(row.ownerId))?.contents.push(candidateContent(row));
  for (const row of fileRows) facts.get(Number(row.ownerId))?.files.push(candidateFile(row));

  return facts;
}

/** A message as its campaign's next airing reads it: its time rules and its items. */
export type AiringMessage = OwnerRow & {
  campaignId: number;
  messageGroupId: number;
  enabled: boolean;
  validFrom: string | null;
  validTo: string | null;
  affectedDateRanges: ScheduleIntervals | null;
  items: ItemFacts;
};

/** The messages of the groups assigned to `campaignIds` (MESSAGE_GROUP channels), with their item facts. */
export async function loadAiringMessages(db: Executor, customerId: number, campaignIds: readonly number[]): Promise<AiringMessage[]> {
  if (campaignIds.length === 0) return [];
  const rows = await execRows<Omit<AiringMessage, 'items'>>(
    db,
    sql`select a.campaign_id::float8 as "campaignId", m.id::float8 as id, m.message_group_id::float8 as "messageGroupId", m.type, m.enabled,
               m.valid_from::text as "validFrom", m.valid_to::text as "validTo", m.affected_date_ranges as "affectedDateRanges",
               m.content_quick_filter_id::text as "contentQuickFilterId", m.file_quick_filter_id::text as "fileQuickFilterId"
          from ${campaignMessageGroupAssignments} a
          join ${messageGroups} g on g.id = a.message_group_id and g.customer_id = ${customerId}
          join ${messages} m on m.message_group_id = g.id and m.customer_id = ${customerId}
         where a.campaign_id = any(${bigintArrayParam(campaignIds)})`,
  );
  const unique = [...new Map(rows.map((r) => [Number(r.id), r])).values()];
  const items = await loadItemFacts(db, customerId, unique, messageOwner);

  return rows.map((r) => ({ ...r, items: items.get(Number(r.id)) ?? { contents: [], files: [] } }));
}

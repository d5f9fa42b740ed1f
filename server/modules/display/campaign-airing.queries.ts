import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import {
  campaignOwner,
  candidateContent,
  candidateFile,
  contentSource,
  fileSource,
  itemsStatement,
  type ContentItemRow,
  type FileItemRow,
  type OwnerRow,
} from './playback-items.queries';
import type { CandidateContent, CandidateFile } from '@/server/playback/resolver';

/*
 * What the next airing needs of a campaign's items (and of its messages' items): not every item row, only
 * whether content exists and the distinct kinds and validities of its files, aggregated in SQL over the
 * statements the playback loader runs, so "what a campaign plays" has one definition.
 */

/** An owner's items reduced to what decides when any of them is playable (ids and names are not kept). */
export type ItemFacts = { contents: CandidateContent[]; files: CandidateFile[] };

/** The item facts of campaigns or messages of one tenant: two statements (three with quick filters) for all of them. */
export async function loadItemFacts(
  db: Executor,
  customerId: number,
  rows: readonly OwnerRow[],
  owner: typeof campaignOwner,
): Promise<Map<number, ItemFacts>> {
  const facts = new Map<number, ItemFacts>(rows.map((r) => [Number(r.id), { contents: [], files: [] }]));
  const ids = rows.map((r) => Number(r.id));
  const [contentItems, fileItems] = await Promise.all([
    itemsStatement(db, customerId, rows, ids, contentSource, owner),
    itemsStatement(db, customerId, rows, ids, fileSource, owner),
  ]);
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

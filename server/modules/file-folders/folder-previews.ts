import { sql } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray } from '@/server/db/sql';
import { thumbnailLocationSql } from '@/server/modules/files';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { isAboveTeams, teamAccessCondition } from '@/server/modules/teams';
import { aliasedTable } from '@/server/query/relations';
import { STORED_FOLDER } from './folder-access';
import type { FileFolder } from './file-folders.schemas';

/**
 * A folder's `firstFileThumbnail` and `fileCount` (select-only fields of the resource) are computed over
 * every file in the folder, the caller unknown to the field map. A team user may not read all of them:
 * the card would show a thumbnail whose `.tmb` answers 404 and count files it never lists. For such a
 * caller this recomputes both over the files it may read (team rule A), in one statement for the page
 * (after paging). OWNER, ADMIN and devices see every file: nothing to do.
 */
export async function fillVisibleFolderPreviews(db: Executor, ctx: { actor: Actor }, items: FileFolder[]): Promise<void> {
  if (isAboveTeams(ctx.actor)) return;
  const wanted = items.filter((item) => 'firstFileThumbnail' in item || 'fileCount' in item);
  if (wanted.length === 0) return;
  const { table: g, from: gFrom } = aliasedTable(files, 'fp_file');
  const readable = teamAccessCondition(ctx, 'file', g.id) ?? sql`true`;
  const inFolder = sql`${g.customerId} = ${fileFolders.customerId} and ${g.fileFolderId} = ${fileFolders.id} and ${readable}`;
  const rows = await execRows<{ id: string; thumbnail: string | null; count: number }>(
    db,
    sql`select ${fileFolders.id} as id,
        (select ${thumbnailLocationSql(g)} from ${gFrom} where ${inFolder} and ${g.lastPreviewUploadTime} is not null order by ${g.name}, ${g.id} limit 1) as thumbnail,
        (select count(*)::int from ${gFrom} where ${inFolder}) as count
      from ${fileFolders} where ${fileFolders.id} = any(${uuidArray(wanted.map((item) => String(item.id)))})
        and ${fileFolders.fileFolderType} = ${STORED_FOLDER}`,
  );
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  for (const item of wanted) {
    const row = byId.get(String(item.id));
    if (!row) continue;
    // An explicit `select` answers null for a folder without a thumbnail, as the field map does.
    if ('firstFileThumbnail' in item) (item as { firstFileThumbnail?: string | null }).firstFileThumbnail = row.thumbnail;
    if ('fileCount' in item) item.fileCount = Number(row.count);
  }
}

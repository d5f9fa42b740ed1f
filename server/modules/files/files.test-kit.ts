import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '@/server/db/client';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { files, type FileRow } from './files.table';

/** Test rows written directly (the upload endpoint is exercised by its own tests). */

export async function rootFolderOf(db: Database, customerId: number) {
  const [root] = await db
    .select()
    .from(fileFolders)
    .where(and(eq(fileFolders.customerId, customerId), isNull(fileFolders.parentId)))
    .limit(1);

  return root!;
}

export async function insertFolder(
  db: Database,
  parent: { id: string; customerId: number; path: string[] },
  name: string,
  values: Partial<typeof fileFolders.$inferInsert> = {},
) {
  const id = uuidv7();
  const [row] = await db
    .insert(fileFolders)
    .values({ id, customerId: parent.customerId, parentId: parent.id, name, path: [...parent.path, id], ...values })
    .returning();

  return row!;
}

/** The values of a file row in `folder` (for bulk inserts of many rows in one statement). */
export function fileRowValues(
  folder: { id: string; customerId: number; path: string[] },
  values: Partial<typeof files.$inferInsert> = {},
): typeof files.$inferInsert {
  return {
    id: uuidv7(),
    customerId: folder.customerId,
    fileFolderId: folder.id,
    folderPath: folder.path,
    name: `file-${randomBytes(3).toString('hex')}.png`,
    contentType: 'image/png',
    size: 1000,
    crcCheckSum: randomBytes(4).toString('hex'),
    creatorEmail: 'creator@example.com',
    creatorName: 'Creator',
    ...values,
  };
}

export async function insertFile(
  db: Database,
  folder: { id: string; customerId: number; path: string[] },
  values: Partial<typeof files.$inferInsert> = {},
): Promise<FileRow> {
  const [row] = await db.insert(files).values(fileRowValues(folder, values)).returning();

  return row!;
}

import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';

/** Test data for the tag and quick-filter tests: folders and file rows inserted directly. */

export async function rootFileFolder(db: Executor, customerId: number) {
  const [root] = await db.select().from(fileFolders).where(and(eq(fileFolders.customerId, customerId), isNull(fileFolders.parentId))).limit(1);

  return root!;
}

export async function insertFolder(db: Executor, input: { customerId: number; parent: { id: string; path: string[] }; name: string; quickFilterId?: string }) {
  const id = uuidv7();
  const [row] = await db
    .insert(fileFolders)
    .values({
      id,
      customerId: input.customerId,
      parentId: input.parent.id,
      name: input.name,
      path: [...input.parent.path, id],
      ...(input.quickFilterId ? { fileFolderType: 2, quickFilterId: input.quickFilterId } : {}),
    })
    .returning();

  return row!;
}

export async function insertFile(
  db: Executor,
  input: { customerId: number; folder: { id: string; path: string[] }; name: string; tags?: string[]; validFrom?: Date | null; validTo?: Date | null },
) {
  const [row] = await db
    .insert(files)
    .values({
      id: uuidv7(),
      customerId: input.customerId,
      fileFolderId: input.folder.id,
      folderPath: input.folder.path,
      name: input.name,
      contentType: 'image/png',
      size: 10,
      crcCheckSum: '00000000',
      tags: input.tags ?? [],
      validFrom: input.validFrom ?? null,
      validTo: input.validTo ?? null,
    })
    .returning();

  return row!;
}

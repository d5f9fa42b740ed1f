import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { contentGroups, deviceGroups, fileFolders } from './folders.table';

/**
 * The folders every customer starts with: root device folder, root file folder, root content folder and
 * the Templates content folder below it (spec 3; the root is where content of a deleted folder goes).
 */
export async function insertInitialFolders(db: Executor, customerId: number) {
  const deviceRoot = uuidv7();
  const fileRoot = uuidv7();
  const contentRoot = uuidv7();
  const templates = uuidv7();
  await db.insert(deviceGroups).values({ id: deviceRoot, customerId, parentId: null, name: 'Root', path: [deviceRoot] });
  await db.insert(fileFolders).values({ id: fileRoot, customerId, parentId: null, name: 'Root', path: [fileRoot] });
  await db.insert(contentGroups).values([
    { id: contentRoot, customerId, parentId: null, name: 'Root', path: [contentRoot] },
    { id: templates, customerId, parentId: contentRoot, name: 'Templates', path: [contentRoot, templates], isTemplateGroup: true },
  ]);
}

/** The tenant's root file folder (created with the customer). */
export async function findRootFileFolder(db: Executor, customerId: number): Promise<typeof fileFolders.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(fileFolders)
    .where(and(eq(fileFolders.customerId, customerId), isNull(fileFolders.parentId)))
    .limit(1);

  return row;
}

/** The tenant's root content folder (created with the customer). */
export async function findRootContentGroup(db: Executor, customerId: number): Promise<typeof contentGroups.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, customerId), isNull(contentGroups.parentId)))
    .limit(1);

  return row;
}

/** The tenant's root device folder (created with the customer). */
export async function findRootDeviceGroup(db: Executor, customerId: number): Promise<typeof deviceGroups.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, customerId), isNull(deviceGroups.parentId)))
    .limit(1);

  return row;
}

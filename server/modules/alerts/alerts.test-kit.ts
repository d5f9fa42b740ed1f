import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { deviceGroups } from '@/server/modules/folders/folders.table';

/** A device folder below `parent`, inserted directly (its path the parent's and its own id). */
export async function insertDeviceGroup(db: Executor, parent: { id: string; customerId: number; path: string[] }, name: string) {
  const id = uuidv7();
  const [row] = await db
    .insert(deviceGroups)
    .values({ id, customerId: parent.customerId, parentId: parent.id, name, path: [...parent.path, id] })
    .returning();

  return row!;
}

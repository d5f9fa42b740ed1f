import type { Executor } from '@/server/db/client';
import { deviceContents, type DeviceContentRow } from './content.table';

export async function insertDeviceContent(db: Executor, values: typeof deviceContents.$inferInsert): Promise<DeviceContentRow> {
  const [row] = await db.insert(deviceContents).values(values).returning();

  return row!;
}

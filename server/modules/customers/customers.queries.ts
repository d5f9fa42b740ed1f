import type { Executor } from '@/server/db/client';
import { customers } from './customers.table';

export async function insertCustomer(db: Executor, values: typeof customers.$inferInsert) {
  const [row] = await db.insert(customers).values(values).returning();

  return row!;
}

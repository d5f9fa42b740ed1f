import type { Database, Executor } from './client';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Runs `work` in a transaction, reusing an outer one when given (so a service verb called
 * from another joins its transaction instead of committing separately).
 */
export async function withTransaction<T>(db: Executor, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return work(db);

  return (db as Database).transaction(work);
}

function isTransaction(db: Executor): db is Transaction {
  // drizzle transactions expose rollback(); the database object does not.
  return typeof (db as { rollback?: unknown }).rollback === 'function';
}

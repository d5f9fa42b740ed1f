import type { Database, Executor } from './client';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

type TransactionState = { db: Database; afterCommit: (() => void)[] };

/** The open transactions of `withTransaction`: their database and what runs once they commit. */
const open = new WeakMap<Transaction, TransactionState>();

/**
 * Runs `work` in a transaction, reusing an outer one when given (so a service verb called
 * from another joins its transaction instead of committing separately).
 */
export async function withTransaction<T>(db: Executor, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return work(db);
  const database = db as Database;
  let state: TransactionState | undefined;
  const result = await database.transaction((tx) => {
    state = { db: database, afterCommit: [] };
    open.set(tx, state);

    return work(tx);
  });
  for (const hook of state?.afterCommit ?? []) hook();

  return result;
}

/**
 * Runs `hook` once what `db` wrote is committed: after the transaction of `withTransaction` commits (never
 * when it rolls back), or at once for a statement outside a transaction (committed already).
 */
export function afterCommit(db: Executor, hook: () => void): void {
  const state = isTransaction(db) ? open.get(db) : undefined;
  if (state) state.afterCommit.push(hook);
  else hook();
}

/** The database an executor belongs to (a transaction of `withTransaction`, or the database itself). */
export function databaseOf(db: Executor): Database | undefined {
  return isTransaction(db) ? open.get(db)?.db : (db as Database);
}

function isTransaction(db: Executor): db is Transaction {
  // drizzle transactions expose rollback(); the database object does not.
  return typeof (db as { rollback?: unknown }).rollback === 'function';
}

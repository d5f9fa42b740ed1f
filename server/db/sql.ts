import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';

/** Raw SQL helpers shared by the `*.queries.ts` files. */

export type SqlRow = Record<string, unknown>;

/** Runs a raw statement and answers its rows: node-postgres and PGlite both answer `execute` with `{ rows }`. */
export async function execRows<T extends SqlRow = SqlRow>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];

  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** A uuid[] literal built from bound parameters. */
export function uuidArray(ids: readonly string[]): SQL {
  if (ids.length === 0) return sql`array[]::uuid[]`;

  return sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
}

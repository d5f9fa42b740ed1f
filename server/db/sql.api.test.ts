import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { execRows } from './sql';

/**
 * `execRows` with `prepared`: a named prepared statement on PostgreSQL (PGlite runs it as any other), answering
 * exactly what the unnamed statement answers, on the pool and inside a transaction, past the executions after
 * which PostgreSQL may switch to a generic plan.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const statement = (from: number, label: string) =>
  sql`select g as n, ${label}::text as label, to_timestamp(g * 86400) as at, array[g, g + 1] as pair, json_build_object('n', g) as doc
        from generate_series(${from}::int, ${from + 2}::int) g order by g`;

describe('execRows with a prepared statement', () => {
  it('answers the rows of the unnamed statement, every time and with any parameters', async () => {
    for (let i = 0; i < 8; i++) {
      const prepared = await execRows(t.db, statement(i, `run ${i}`), { prepared: true });
      expect(prepared).toEqual(await execRows(t.db, statement(i, `run ${i}`)));
      expect(prepared.map((r) => r.n)).toEqual([i, i + 1, i + 2]);
    }
  });

  it('is named on PostgreSQL: a connection keeps one statement for the text, inside a transaction too', async () => {
    const marker = `prepared-marker-${Date.now()}`;
    const kept = await t.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await execRows(tx, sql`select ${i}::int as i, ${marker}::text as marker`, { prepared: true });
      const [row] = await execRows<{ n: number }>(tx, sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%::int as i, $2::text as marker%`}`);

      return row!.n;
    });
    expect(kept).toBe(t.databaseUrl ? 1 : 0);
  });

  it('still runs statements past the most it names (unnamed then)', async () => {
    // Texts that differ by data (a literal in the text) are a misuse: after the cap they run unnamed, and still answer.
    for (let i = 0; i < 300; i++) {
      const [row] = await execRows<{ v: number }>(t.db, sql.raw(`select ${i}::int as v /* distinct text ${i} */`), { prepared: true });
      expect(row!.v).toBe(i);
    }
  });
});

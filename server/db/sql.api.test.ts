import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { execRows, unnestColumns } from './sql';

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
      const [row] = await execRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%::int as i, $2::text as marker%`}`,
      );

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

describe('unnestColumns', () => {
  const read = (rows: number, columns: Parameters<typeof unnestColumns>[2]) => {
    const { from, list } = unnestColumns('x', rows, columns);
    const query = sql`select ${list} from ${from}`;

    return { params: new PgDialect().sqlToQuery(query).params, rows: execRows(t.db, query) };
  };

  it('reads the rows back column by column; a column whose values are all the same is bound once as one value', async () => {
    const hostile = 'NULL, "quoted" \\ {braces}';
    const { params, rows } = read(3, {
      id: { type: 'integer', values: [1, 2, 3] },
      label: { type: 'text', values: [hostile, 'b', null] },
      zero: { type: 'integer', values: [0, 0, 0] },
      none: { type: 'uuid', values: [null, null, null] },
      flag: { type: 'boolean', values: [true, true, true] },
    });
    expect(await rows).toEqual([
      { id: 1, label: hostile, zero: 0, none: null, flag: true },
      { id: 2, label: 'b', zero: 0, none: null, flag: true },
      { id: 3, label: null, zero: 0, none: null, flag: true },
    ]);
    // Two arrays (id, label), the constant 0 and true; null is no parameter at all.
    expect(params).toHaveLength(4);
  });

  it('makes `rows` rows when every column is constant (one row, or rows all alike)', async () => {
    expect(await read(1, { id: { type: 'integer', values: [7] } }).rows).toEqual([{ id: 7 }]);
    expect(await read(2, { id: { type: 'integer', values: [7, 7] } }).rows).toEqual([{ id: 7 }, { id: 7 }]);
  });

  it('refuses a column of the wrong length, a uuid that is not one and a number that is not a safe integer', () => {
    expect(() => unnestColumns('x', 2, { id: { type: 'integer', values: [1] } })).toThrow(/values for 2 rows/);
    expect(() => unnestColumns('x', 2, { id: { type: 'uuid', values: ['x', 'y'] } })).toThrow(/not a uuid/);
    expect(() => unnestColumns('x', 1, { id: { type: 'bigint', values: [2 ** 60] } })).toThrow(/not an integer/);
  });
});

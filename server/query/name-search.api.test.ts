import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { teamResource } from '@/server/modules/teams/teams.resource';
import { teams } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { compileSearch } from './search/compile';
import type { AnyResource } from './relations';

/*
 * Substring search on names (issue 27 §4.8): `name~…` compiles to ILIKE '%…%', which only a trigram index serves
 * (server/db/custom-sql/name_search_trigram.sql). Every resource whose `name` the query language searches must have
 * one, and the escaped wildcards must still mean themselves when the index answers.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const dialect = new PgDialect();
const rowsOf = (result: unknown) => (result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]);

/** EXPLAIN of `query` (parameters inlined: EXPLAIN takes none on the extended protocol). */
async function explain(db: Executor, query: SQL): Promise<string> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => `'${String(params[Number(n) - 1]).replace(/'/g, "''")}'`);

  return rowsOf(await db.execute(sql.raw(`explain (costs off) ${inlined}`)))
    .map((r) => String(Object.values(r)[0]))
    .join('\n');
}

/**
 * Which trigram index could serve `condition` on `table`, whatever the planner would pick on a table this small: a
 * temporary copy of the table holding only the table's trigram indexes, named as the table in the query, sequential
 * scans priced out. The plan scans a trigram index exactly when one indexes the expression the condition compiles to.
 */
function trigramPlanOf(table: PgTable, condition: SQL): Promise<string> {
  const name = getTableConfig(table).name;

  return withTransaction(t.db, async (tx) => {
    await tx.execute(sql.raw(`create temp table probe (like "${name}") on commit drop`));
    const indexes = rowsOf(
      await tx.execute(sql`select pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indrelid
        where c.relname = ${name} and c.relnamespace = 'public'::regnamespace and pg_get_indexdef(i.indexrelid) like '%gin_trgm_ops%'`),
    );
    for (const [n, { def }] of indexes.entries()) {
      await tx.execute(sql.raw(String(def).replace(/^CREATE INDEX \S+ ON \S+ /, `CREATE INDEX probe_${n}_trgm_idx ON pg_temp.probe `)));
    }
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);

    return explain(tx, sql`select 1 from pg_temp.probe as ${sql.identifier(name)} where ${condition}`);
  });
}

/** Every resource declared in a module's `*.resource.ts` (top-level exports), by its module file. */
async function declaredResources(): Promise<Array<{ file: string; resource: AnyResource }>> {
  const root = path.resolve(__dirname, '../modules');
  const found: Array<{ file: string; resource: AnyResource }> = [];
  for (const folder of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const file of readdirSync(path.join(root, folder.name)).filter((f) => f.endsWith('.resource.ts'))) {
      const exports = (await import(path.join(root, folder.name, file))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        const candidate = value as Partial<AnyResource> | null;
        if (candidate && typeof candidate === 'object' && typeof candidate.fields === 'function' && candidate.table)
          found.push({ file, resource: candidate as AnyResource });
      }
    }
  }

  return found;
}

describe('name search is served by a trigram index', () => {
  it('every resource whose name the query language searches has one, for ~, : and ^', async () => {
    const resources = await declaredResources();
    // The resources' own names: a `name` field over a `name` column (a file's `creator` is a view of the file row
    // whose `name` is the uploader's, `creator_name`: a person, not a named resource).
    const named = resources.filter(({ resource }) => {
      const field = resource.fields(resource.table)['name'];
      if (field?.kind !== 'scalar' || field.type !== 'string' || field.searchable === false) return false;

      return /"name"/.test(dialect.sqlToQuery(sql`${field.sql}`).sql);
    });
    // Sanity: the glob found the resources (content, files, devices, folders, users, …).
    expect(named.length).toBeGreaterThanOrEqual(15);
    for (const { file, resource } of named) {
      const label = (search: string) => `${file}: ${resource.name} (${getTableConfig(resource.table).name}), ${search}`;
      for (const search of ['name~Abc', 'name:Abc', 'name^Abc']) {
        expect(await trigramPlanOf(resource.table, compileSearch(resource, search)!), label(search)).toMatch(
          /Bitmap Index Scan on probe_\d_trgm_idx/,
        );
      }
    }
  });

  it("the users' search (name or e-mail) is one bitmap OR of two trigram indexes", async () => {
    const { userResource } = await import('@/server/modules/users/users.resource');
    const plan = await trigramPlanOf(userResource.table, compileSearch(userResource, 'name~ann|email~ann')!);
    expect(plan).toMatch(/BitmapOr/);
    expect(plan.match(/Bitmap Index Scan on probe_\d_trgm_idx/g)).toHaveLength(2);
  });
});

describe('substrings holding LIKE wildcards and the escape character', () => {
  let token: string;
  let customerId: number;
  const names = ['Sale 100% Off', 'Sale 1000 Off', 'snake_case Name', 'snakeXcase Name', 'Back\\Slash Name', 'BackSlash Name'];
  beforeAll(async () => {
    const owner = await t.actor('OWNER');
    token = owner.token;
    customerId = owner.user.customerId;
    await t.db.insert(teams).values(names.map((name) => ({ id: uuidv7(), customerId, name })));
  });

  // The search value in the query language's own escaping (`%` is `%25`), then URL-encoded as a whole.
  const cases: Array<[string, string[]]> = [
    ['name~100%25', ['Sale 100% Off']],
    ['name~E_C', ['snake_case Name']],
    ['name~K\\s', ['Back\\Slash Name']],
    ['name:e_c', ['snake_case Name']],
    ['name~0%25 o', ['Sale 100% Off']],
  ];

  it.each(cases)('through the API, %s finds exactly its names, ignoring case where asked', async (search, expected) => {
    const res = await t.request('GET', `/api/team?${new URLSearchParams({ search, sort: 'name' })}`, { token });
    expect(res.status).toBe(200);
    expect((res.body as { content: Array<{ name: string }> }).content.map((team) => team.name)).toEqual(expected);
  });

  it.each(cases)('from the trigram index alone, %s finds exactly its names', async (search, expected) => {
    const condition = compileSearch(teamResource, search)!;
    const { plan, rows } = await withTransaction(t.db, async (tx) => {
      // Every other access path priced out: the rows come from the trigram index (the plan says so).
      for (const setting of ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan'])
        await tx.execute(sql`select set_config(${setting}, 'off', true)`);
      const query = sql`select ${teams.name} as name from ${teams} where ${condition} order by ${teams.name}`;

      return { plan: await explain(tx, query), rows: rowsOf(await tx.execute(query)) };
    });
    expect(plan).toMatch(/Bitmap Index Scan on team_name_trgm_idx/);
    expect(rows.map((r) => r.name)).toEqual(expected);
  });
});

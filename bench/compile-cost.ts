/**
 * The query language's per-request cost, in-process: for one typical list request of `user`,
 * compileSearch + buildProjection + compileSort, the statement assembled as findPage does, and
 * drizzle's `PgDialect().sqlToQuery` (the SQL text and parameters the driver sends).
 * Run by scripts/bench.mjs with `node --import tsx bench/compile-cost.ts`; prints one JSON line.
 *
 * Environment: BENCH_SEARCH, BENCH_SELECT, BENCH_SORT (defaults below), BENCH_ITERATIONS (20000),
 * BENCH_WARMUP (3000).
 */
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { buildProjection, compileSearch, compileSort, selectList } from '@/server/query';
import { cachedProjection, cachedSearch, cachedSort } from '@/server/query/compile-cache';
import { userResource } from '@/server/modules/users/users.resource';

const search = process.env.BENCH_SEARCH ?? 'name:acme|email:acme,role∈EDITOR%2CVIEWER,createdDate>1700000000000';
const select = process.env.BENCH_SELECT ?? 'id,name,email,customer(id,name)';
const sort = process.env.BENCH_SORT ?? 'name,asc';
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const warmup = Number(process.env.BENCH_WARMUP ?? 3_000);
const dialect = new PgDialect();

function statement(): SQL {
  const projection = buildProjection(userResource, select);
  const orderBy = compileSort(userResource, [sort]).orderBy;
  const condition = compileSearch(userResource, search);
  const where = condition ? sql` where ${condition}` : sql``;

  return sql`select ${selectList(projection)}, count(*) over () as ${sql.identifier('__total')}
      from ${userResource.table}${where}
      order by ${sql.join(orderBy, sql`, `)}
      limit ${20} offset ${0}`;
}

function full() {
  return dialect.sqlToQuery(statement());
}

/** Mean microseconds per call of `fn` over `n` calls (after `warm` unmeasured calls). */
function time(fn: () => unknown, n: number, warm: number): number {
  let sink = 0;
  for (let i = 0; i < warm; i++) sink += fn() ? 1 : 0;
  const start = performance.now();
  for (let i = 0; i < n; i++) sink += fn() ? 1 : 0;
  const elapsed = performance.now() - start;
  if (sink < 0) console.log(sink);

  return (elapsed * 1000) / n;
}

const query = full();
const stages = {
  compileSearch: time(() => compileSearch(userResource, search), iterations, warmup),
  buildProjection: time(() => buildProjection(userResource, select), iterations, warmup),
  compileSort: time(() => compileSort(userResource, [sort]), iterations, warmup),
  sqlToQuery: (() => {
    const built = statement();

    return time(() => dialect.sqlToQuery(built), iterations, warmup);
  })(),
};
// Measured last and again as a whole, so the stages' JIT warm-up benefits it as in a long-running server.
const totalMicros = time(full, iterations, warmup);
// The compiler proper (parse + compile search, select, sort), every time from scratch: what a
// request costs on a cache miss. Drizzle's rendering (sqlToQuery) is the ORM's cost for any query.
const compilerMicros = time(
  () => [compileSearch(userResource, search), buildProjection(userResource, select), compileSort(userResource, [sort])],
  iterations,
  warmup,
);
// What findPage pays when the same search/select/sort was compiled before (server/query/compile-cache.ts).
const cachedMicros = time(
  () => [cachedSearch(userResource, search), cachedProjection(userResource, select), cachedSort(userResource, [sort])],
  iterations,
  warmup,
);

process.stdout.write(
  `${JSON.stringify({ search, select, sort, iterations, totalMicros, compilerMicros, cachedMicros, stages, sqlLength: query.sql.length, params: query.params.length, sql: query.sql })}\n`,
);

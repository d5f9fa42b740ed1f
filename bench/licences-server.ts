/**
 * Benchmark server for licences (issue 33): the production service (`createService`) on a bare `@hono/node-server`
 * like the other benchmark servers (no job queue: nothing measured here runs in a job).
 *
 * Seeded at start, set-based: BENCH_LICENCES_CUSTOMERS customers ("Bench Licences 0001" …; every 50th a network owner
 * whose next 10 customers are its members) and BENCH_LICENCES_ORDERS licence orders spread round-robin over them,
 * varied by the order number n (hashes of n, not random, so every run seeds the same): about 80 % approved, 85 %
 * SUBSCRIPTION (the rest ONETIME), recurrence type n mod 4 with frequency 1–12, prices 0.0000–999.9999 with four
 * decimals, currency EUR, USD, CHF or GBP, 1–50 licences, the invoice start not set (60 %), in the past (30 %) or in the
 * future (10 %).
 *
 * Bench-only routes (127.0.0.1 only; never part of the product):
 *   - `POST /__bench/count-baseline` `{runs}`: `select count(*) from license_order` `runs` times, each timed in-process;
 *   - `POST /__bench/global-invoice` `{runs, date}`: the product's `getGlobalInvoice` service verb `runs` times
 *     in-process (no HTTP), each timed; and EXPLAIN (ANALYZE, BUFFERS) of its statement.
 *   - `POST /__bench/seed-fleet` `{customerId, devices}`: `devices` unlicensed devices in the customer's root device
 *     folder and an approved ONETIME PROFESSIONAL order of as many licences (answers `{orderId}`), for the
 *     `updateLicense` phase; `POST /__bench/unlicense-fleet` `{customerId}` sets them back between runs.
 *
 * Started by scripts/bench-licences.mjs with `node --import tsx bench/licences-server.ts`; prints one JSON line
 * (`{"benchServer":"licences",...}`) when ready.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { ServiceContext } from '@/server/context/service-context';
import { execRows } from '@/server/db/sql';
import { createLogger } from '@/server/logger';
import { revenueByCurrencyQuery } from '@/server/modules/licences/license-invoices.queries';
import { getGlobalInvoice } from '@/server/modules/licences/license-invoices.service';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { rawQuery } from './server-lib';

const CUSTOMERS = Number(process.env.BENCH_LICENCES_CUSTOMERS ?? 1000);
const ORDERS = Number(process.env.BENCH_LICENCES_ORDERS ?? 10_000);
const NAME_PREFIX = 'Bench Licences ';

/** `runs` timings of `fn`, in ms. */
async function timed(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }

  return times;
}

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, prepare, setReady } = await createService(config, log);
  const { db } = handle;

  const bench = async (request: Request, url: URL): Promise<Response | undefined> => {
    const body = async <T>() => (await request.json().catch(() => ({}))) as T;
    switch (url.pathname) {
      case '/__bench/count-baseline': {
        const input = await body<{ runs: number }>();
        const times = await timed(input.runs, () => execRows(db, sql`select count(*) from license_order`));

        return Response.json({ times });
      }
      case '/__bench/global-invoice': {
        const input = await body<{ runs: number; date: string }>();
        // The verb reads only `db` of its context (the route already checked the ADMIN role).
        const ctx = { db } as unknown as ServiceContext;
        const times = await timed(input.runs, () => getGlobalInvoice(ctx, { date: input.date }));
        const built = revenueByCurrencyQuery(db, new Date(input.date)).toSQL();
        const plan = await rawQuery(handle, { sql: `explain (analyze, buffers) ${built.sql}`, params: built.params });

        return Response.json({ times, plan: plan.map((row) => String(row['QUERY PLAN'])).join('\n') });
      }
      case '/__bench/seed-fleet': {
        const input = await body<{ customerId: number; devices: number }>();
        await db.execute(sql`insert into device (id, customer_id, device_group_id, group_path, name, secret_hash)
          select gen_random_uuid(), g.customer_id, g.id, g.path, 'Fleet ' || lpad(n::text, 5, '0'), 'bench'
            from device_group g, generate_series(1, ${input.devices}) n
           where g.customer_id = ${input.customerId} and g.parent_id is null`);
        const [order] = await execRows<{ id: number }>(
          db,
          sql`insert into license_order (customer_id, order_date, device_license_count, approved, approve_date, license_type, license_pay_type)
              values (${input.customerId}, now(), ${input.devices}, true, now(), 'PROFESSIONAL', 'ONETIME') returning id`,
        );
        await db.execute(sql`analyze device`);

        return Response.json({ orderId: Number(order!.id) });
      }
      case '/__bench/unlicense-fleet': {
        const input = await body<{ customerId: number }>();
        await db.execute(
          sql`update device set license_status = 'UN_LICENSED', license_order_id = null, license_type = null where customer_id = ${input.customerId}`,
        );

        return Response.json({});
      }
      default:
        return undefined;
    }
  };

  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__bench/')) {
      const answer = await bench(request, url);
      if (answer) return answer;
    }

    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady });

  await prepare();
  const started = performance.now();
  await db.execute(sql`insert into customer (name, license_tier, is_subreseller, subreseller_since)
    select ${NAME_PREFIX} || lpad(c::text, 4, '0'), (array['STARTER', 'BUSINESS', 'ENTERPRISE'])[1 + c % 3],
           c % 50 = 1, case when c % 50 = 1 then now() end
      from generate_series(1, ${CUSTOMERS}) c
    on conflict do nothing`);
  // Customers 2–11 after each network owner (1, 51, 101, …) are its members.
  await db.execute(sql`update customer m set owner_subreseller_id = o.id
      from customer o
     where starts_with(m.name, ${NAME_PREFIX}) and starts_with(o.name, ${NAME_PREFIX}) and o.is_subreseller
       and substr(m.name, ${NAME_PREFIX.length + 1})::int between substr(o.name, ${NAME_PREFIX.length + 1})::int + 1
                                                           and substr(o.name, ${NAME_PREFIX.length + 1})::int + 10`);
  const hash = (salt: string, modulo: number) => sql.raw(`(abs(hashtext('${salt}' || n::text)) % ${modulo})`);
  await db.execute(sql`with bench_customer as (
      select id, row_number() over (order by id) - 1 as k, count(*) over () as total from customer where starts_with(name, ${NAME_PREFIX}))
    insert into license_order (customer_id, order_date, device_license_count, price_per_device, currency,
                         approved, approve_date, invoice_start_date, license_type, license_pay_type, recurrence_type, recurrence_frequency)
    select c.id,
           now() - interval '1 day' * ${hash('date', 700)},
           1 + ${hash('count', 50)},
           ${hash('price', 10_000_000)} / 10000.0,
           (array['EUR', 'USD', 'CHF', 'GBP'])[1 + ${hash('currency', 4)}],
           ${hash('approved', 10)} < 8,
           case when ${hash('approved', 10)} < 8 then now() end,
           case when ${hash('start', 10)} < 6 then null
                when ${hash('start', 10)} < 9 then now() - interval '1 day' * ${hash('past', 300)}
                else now() + interval '1 day' * (1 + ${hash('future', 300)}) end,
           (array['BASIC', 'PROFESSIONAL', 'DBA', 'ENTERPRISE', 'VIDEO_WALL'])[1 + ${hash('type', 5)}],
           case when ${hash('pay', 20)} < 17 then 'SUBSCRIPTION' else 'ONETIME' end,
           case when ${hash('pay', 20)} < 17 then (array['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])[1 + n % 4] end,
           case when ${hash('pay', 20)} < 17 then 1 + ${hash('frequency', 12)} end
      from generate_series(1, ${ORDERS}) n
      join bench_customer c on c.k = (n - 1) % c.total`);
  await db.execute(sql`analyze customer`);
  await db.execute(sql`analyze license_order`);
  const [counts] = await execRows<{ customers: number; orders: number; counted: number }>(
    db,
    sql`select (select count(*)::int from customer where starts_with(name, ${NAME_PREFIX})) as customers,
               (select count(*)::int from license_order) as orders,
               (select count(*)::int from license_order where approved and license_pay_type = 'SUBSCRIPTION'
                  and (invoice_start_date is null or invoice_start_date <= now())) as counted`,
  );
  setReady(true);
  const seed = { ...counts, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'licences', port: config.port, driver: handle.driver, pid: process.pid, seed })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench licences server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

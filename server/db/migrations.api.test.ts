import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPostgresDatabase, createTestContext, type TestContext } from '@/server/test/harness';
import { MIGRATION_LOCK_KEY, migrationsFolder, openDatabase, runMigrations, type DatabaseHandle } from './client';
import { DatabaseTooNewError, readJournal } from './migration-journal';

const journal = readJournal(migrationsFolder());
const latest = journal.at(-1)!;
const target = inject('testDatabase');
const databaseUrl = process.env.DATABASE_URL;

/** Raw statements on either driver: both answer `{ rows }`. */
async function query<T>(handle: DatabaseHandle, text: string, params: unknown[] = []): Promise<T[]> {
  const result = handle.pool ? await handle.pool.query(text, params) : await handle.pglite!.query(text, params);

  return result.rows as T[];
}

const count = async (handle: DatabaseHandle, table: string) =>
  (await query<{ n: number }>(handle, `select count(*)::int as n from ${table}`))[0]!.n;

/** A database no release has migrated, on the driver this run uses; `drop` removes a PostgreSQL one again. */
async function emptyDatabase(): Promise<{ url?: string; open: () => Promise<DatabaseHandle>; drop: () => Promise<void> }> {
  if (target.kind === 'pglite') {
    const handle = await openDatabase({ kind: 'pglite-memory' });

    return { open: async () => handle, drop: () => handle.close() };
  }
  const database = await createPostgresDatabase({ fromTemplate: false });

  return { url: database.url, open: () => openDatabase({ kind: 'pg', url: database.url, poolSize: 2 }), drop: database.drop };
}

describe('a database migrated past what this build knows', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records the name of every migration it applied, for older builds to name it', async () => {
    const rows = await query<{ created_at: string; tag: string }>(
      t.handle,
      'select created_at::text, tag from drizzle.migration_tags order by created_at',
    );
    expect(rows.map((row) => [Number(row.created_at), row.tag])).toEqual(journal.map((entry) => [entry.when, entry.tag]));
  });

  it('is refused at start-up, naming the database’s latest migration and the build’s, and nothing is written', async () => {
    const newer = latest.when + 86_400_000;
    await query(t.handle, `insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', $1)`, [newer]);
    await query(t.handle, `insert into drizzle.migration_tags (created_at, tag) values ($1, '0099_from_the_future')`, [newer]);
    const before = [await count(t.handle, 'drizzle.__drizzle_migrations'), await count(t.handle, 'drizzle.migration_tags')];

    const refused = runMigrations(t.handle);
    await expect(refused).rejects.toBeInstanceOf(DatabaseTooNewError);
    await expect(refused).rejects.toThrow(
      `The database was migrated by a newer release (its latest migration 0099_from_the_future, this build knows up to ${latest.tag}); ` +
        'start the newer release or restore a backup.',
    );
    expect([await count(t.handle, 'drizzle.__drizzle_migrations'), await count(t.handle, 'drizzle.migration_tags')]).toEqual(before);
  });

  it('migrates nothing in a database whose only migration is unknown (drizzle alone would apply them all)', async () => {
    const empty = await emptyDatabase();
    const handle = await empty.open();
    try {
      await query(handle, 'create schema drizzle');
      await query(handle, 'create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
      await query(handle, `insert into drizzle.__drizzle_migrations (hash, created_at) values ('unknown', 1)`);

      await expect(runMigrations(handle)).rejects.toThrow(
        `(its latest migration created 1970-01-01T00:00:00.001Z, this build knows up to ${latest.tag})`,
      );
      expect(await count(handle, `information_schema.tables where table_schema = 'public'`)).toBe(0);
      expect(await count(handle, 'drizzle.__drizzle_migrations')).toBe(1);
      expect(
        (await query<{ tags: string | null }>(handle, `select to_regclass('drizzle.migration_tags')::text as tags`))[0]?.tags,
      ).toBeNull();
    } finally {
      if (target.kind === 'pg') await handle.close();
      await empty.drop();
    }
  }, 60_000); // a fresh in-memory PGlite runs initdb: seconds on a loaded machine
});

describe.runIf(databaseUrl)('several instances on one empty PostgreSQL database (runs only with DATABASE_URL)', () => {
  it('two migrating at once both succeed, and each migration is applied exactly once', async () => {
    const empty = await emptyDatabase();
    const [first, second] = [await empty.open(), await empty.open()];
    try {
      const waited: string[] = [];
      await Promise.all([
        runMigrations(first, { onWait: () => waited.push('first') }),
        runMigrations(second, { onWait: () => waited.push('second') }),
      ]);

      const applied = await query<{ created_at: string; n: number }>(
        first,
        'select created_at::text, count(*)::int as n from drizzle.__drizzle_migrations group by created_at order by created_at',
      );
      expect(applied.map((row) => [Number(row.created_at), row.n])).toEqual(journal.map((entry) => [entry.when, 1]));
      // Both went through the lock; at most one found it taken.
      expect(waited.length).toBeLessThanOrEqual(1);
      // The one that came second found nothing to do and can serve: the schema is there for both.
      expect(await count(second, 'customer')).toBe(0);
    } finally {
      await first.close();
      await second.close();
      await empty.drop();
    }
  }, 120_000);

  it('the second waits on the advisory lock while another holds it, and migrates only once it is free', async () => {
    const empty = await emptyDatabase();
    const handle = await empty.open();
    const holder = new pg.Client({ connectionString: empty.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      let hasWaited = false;
      const migrating = runMigrations(handle, {
        onWait: () => {
          hasWaited = true;
        },
      });
      // Blocked in pg_advisory_lock: PostgreSQL lists its request as not granted.
      await expect
        .poll(
          async () =>
            (
              await holder.query<{ n: number }>(
                `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
              )
            ).rows[0]!.n,
          { timeout: 30_000 },
        )
        .toBe(1);
      expect(hasWaited).toBe(true);
      expect((await holder.query(`select to_regclass('drizzle.__drizzle_migrations')::text as t`)).rows[0].t).toBeNull();

      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await migrating;
      expect(await count(handle, 'drizzle.__drizzle_migrations')).toBe(journal.length);
    } finally {
      await holder.end();
      await handle.close();
      await empty.drop();
    }
  }, 120_000);
});

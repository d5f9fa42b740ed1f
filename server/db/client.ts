import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import {
  DatabaseTooNewError,
  findUnknownMigrations,
  newerDatabaseMessage,
  readJournal,
  type AppliedMigration,
  type JournalEntry,
} from './migration-journal';
import { execRows } from './sql';

/**
 * The one database type every query is written against; both drivers satisfy it. No relational schema:
 * queries use the query builder only, so the tables stay with their modules (drizzle-kit finds them by glob).
 */
export type Database = PgDatabase<PgQueryResultHKT>;
/** A transaction or the database itself: what queries accept. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export type DatabaseHandle = {
  db: Database;
  driver: 'pglite' | 'pg';
  /** The embedded instance when the driver is PGlite (the job queue shares it). */
  pglite?: PGlite;
  pool?: pg.Pool;
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export type OpenDatabaseOptions =
  /** `onStatement`: told the seconds of every statement on the pool's connections (the metrics' statement time). */
  | { kind: 'pg'; url: string; poolSize?: number; onStatement?: (seconds: number) => void }
  | { kind: 'pglite-dir'; dataDir: string }
  /** In-memory PGlite, optionally loaded from a dumped data directory (tests). */
  | { kind: 'pglite-memory'; loadDataDir?: Blob | File };

/**
 * The extensions the migrations create (`create extension`), which PGlite must have loaded in every instance that
 * serves: pg_trgm for the trigram indexes of the name search (docs/decisions.md "Query language"). PostgreSQL
 * servers ship them in their contrib package (Debian: part of the server package).
 */
const PGLITE_EXTENSIONS = { pg_trgm };

// node-postgres returns int8 as strings; our bigint ids and sizes fit in a double, so parse them.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'pg') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.onStatement ? { Client: timedClient(options.onStatement) } : {}),
    });
    const db = drizzlePg(pool) as unknown as Database;

    return {
      db,
      driver: 'pg',
      pool,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }

  let lock: DataDirLock | undefined;
  let pglite: PGlite;
  if (options.kind === 'pglite-dir') {
    lock = acquireDataDirLock(options.dataDir);
    try {
      pglite = await openPgliteDir(path.join(path.resolve(options.dataDir), 'pgdata'));
    } catch (err) {
      lock.release();
      throw err;
    }
  } else {
    pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  }
  const db = drizzlePglite(pglite) as unknown as Database;

  return {
    db,
    driver: 'pglite',
    pglite,
    ping: async () => {
      await pglite.query('select 1');
    },
    close: async () => {
      await pglite.close();
      lock?.release();
    },
  };
}

/**
 * A client class whose every statement is timed: the one place all of them pass, whether sent by the pool
 * (`pool.query` hands a callback) or on a checked-out connection inside a transaction (a promise).
 */
function timedClient(onStatement: (seconds: number) => void): typeof pg.Client {
  return class TimedClient extends pg.Client {
    // pg's overloads (callback, promise, submittable) cannot be restated one by one here; each is passed on unchanged.
    override query(...args: any[]): any {
      const started = performance.now();
      const done = () => onStatement((performance.now() - started) / 1000);
      const last = args.at(-1);
      if (typeof last === 'function') {
        args[args.length - 1] = (...results: unknown[]) => {
          done();
          last(...results);
        };

        return (super.query as (...a: any[]) => any)(...args);
      }
      const result = (super.query as (...a: any[]) => any)(...args);
      if (result instanceof Promise) result.then(done, done);

      return result;
    }
  };
}

/**
 * Creating a cluster (initdb) grows PGlite's WebAssembly memory to ~750 MiB, and that memory never
 * shrinks while the instance lives; a cluster opened from disk needs ~250 MiB. So a new data directory is
 * created by a first instance that is closed at once, and served by a second one (~0.2 s, first start only).
 * shared_buffers is 32 MB instead of PostgreSQL's 128 MB: the memory is taken at start, and the media
 * list benchmark over 100 000 files measured no difference (pages missing from the buffers come from
 * the operating system's cache).
 */
async function openPgliteDir(dir: string): Promise<PGlite> {
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    await (await PGlite.create(dir)).close();
    collectGarbage();
  }

  return PGlite.create(dir, { extensions: PGLITE_EXTENSIONS, postgresqlconf: ["shared_buffers = '32MB'"] });
}

/**
 * The closed instance's WebAssembly memory is freed only by a garbage collection, which V8 may put off
 * for a long time (measured: the server then idled at ~750 MiB instead of ~450). One forced collection,
 * on the first start only.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), 'drizzle'));
}

/**
 * The PostgreSQL advisory lock (session level, one key for every release) that instances starting together on
 * one database take around their migrations: the first migrates, the others wait, then find nothing to do.
 * 0x5349474e is "SIGN" in ASCII; it must not change, or an older and a newer instance would not exclude each other.
 */
export const MIGRATION_LOCK_KEY = 0x5349474e;

type MigrationOptions = {
  /** Called when another instance holds the lock (it is migrating): this one waits for it. */
  onWait?: () => void;
};

/**
 * Applies the generated migrations in-process; the same files serve both drivers. First refuses a database that
 * holds migrations this build does not ship (DatabaseTooNewError, nothing written). On PostgreSQL all of it runs on
 * one dedicated connection holding MIGRATION_LOCK_KEY; PGlite is one process on a locked data directory.
 */
export async function runMigrations(handle: DatabaseHandle, options: MigrationOptions = {}): Promise<void> {
  const folder = migrationsFolder();
  const journal = readJournal(folder);
  if (handle.driver === 'pglite') {
    await migrateKnown({ db: handle.db, journal, migrate: (db) => migratePglite(db as never, { migrationsFolder: folder }) });

    return;
  }
  const client = await handle.pool!.connect();
  let isBroken = false;
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [MIGRATION_LOCK_KEY]);
    if (!rows[0]?.locked) {
      options.onWait?.();
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    }
    try {
      const db = drizzlePg(client) as unknown as Database;
      await migrateKnown({ db, journal, migrate: (on) => migratePg(on as never, { migrationsFolder: folder }) });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {
        // A connection that cannot unlock is closed instead: PostgreSQL drops a session's locks with it.
        isBroken = true;
      });
    }
  } finally {
    client.release(isBroken);
  }
}

/** The known-migrations check, drizzle's migrator, then the names of what this build applied (for older builds' message). */
async function migrateKnown({ db, journal, migrate }: { db: Database; journal: JournalEntry[]; migrate: (db: Database) => Promise<void> }) {
  const unknown = findUnknownMigrations({ journal, applied: await appliedMigrations(db) });
  if (unknown.length > 0) throw new DatabaseTooNewError(newerDatabaseMessage({ journal, unknown }));
  await migrate(db);
  await db.execute(sql`create table if not exists drizzle.migration_tags (created_at bigint primary key, tag text not null)`);
  const values = journal.map((entry) => sql`(${entry.when}, ${entry.tag})`);
  await db.execute(sql`insert into drizzle.migration_tags (created_at, tag) values ${sql.join(values, sql`, `)} on conflict do nothing`);
}

/** Read only: a database no release migrated yet has neither table. */
async function appliedMigrations(db: Database): Promise<AppliedMigration[]> {
  const [present] = await execRows<{ migrations: boolean; tags: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as migrations, to_regclass('drizzle.migration_tags') is not null as tags`,
  );
  if (!present?.migrations) return [];
  const rows = await execRows<{ created_at: string; tag: string | null }>(
    db,
    present.tags
      ? sql`select m.created_at::text, t.tag from drizzle.__drizzle_migrations m left join drizzle.migration_tags t using (created_at)`
      : sql`select created_at::text, null as tag from drizzle.__drizzle_migrations`,
  );

  return rows.map((row) => ({ createdAt: Number(row.created_at), ...(row.tag ? { tag: row.tag } : {}) }));
}

import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';

/** Raw SQL helpers shared by the `*.queries.ts` files. */

export type SqlRow = Record<string, unknown>;

/** The most statements `execRows` names (per process); past it, statements run unnamed (a text that varies with data must not fill every connection). */
const PREPARED_MAX = 256;
const preparedNames = new Map<string, string>();

/** The name of a prepared statement: a hash of its text, so one text always has one name, on every connection. */
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < PREPARED_MAX)
    preparedNames.set(text, (name = `q_${createHash('sha1').update(text).digest('base64url')}`));

  return name;
}

/** What drizzle keeps inside a database or transaction (not in its public types): how `execute` itself runs. */
type DrizzleInternals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
};

/**
 * Runs a raw statement and answers its rows: node-postgres and PGlite both answer `execute` with `{ rows }`.
 * `prepared`: for a hot statement whose text depends only on the code path, never on data (ids travel as array
 * parameters), run as a named prepared statement on PostgreSQL: each pooled connection parses it once and may
 * keep its plan (on the manifest's statements parsing and planning were a third of the time spent waiting on
 * the database). PGlite runs it as any other statement.
 */
export async function execRows<T extends SqlRow = SqlRow>(db: Executor, query: SQL, options?: { prepared?: boolean }): Promise<T[]> {
  let result: { rows?: T[] } | T[];
  if (options?.prepared) {
    const { dialect, session } = db as unknown as DrizzleInternals;
    const built = dialect.sqlToQuery(query);
    result = (await session.prepareQuery(built, undefined, preparedName(built.sql), false).execute()) as { rows?: T[] } | T[];
  } else {
    result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  }

  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** A uuid[] literal built from bound parameters. */
export function uuidArray(ids: readonly string[]): SQL {
  if (ids.length === 0) return sql`array[]::uuid[]`;

  return sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A uuid[] bound as one parameter (its text form), for statements over many ids: `uuidArray` binds one
 * parameter per id, and a thousand of them (a playlist's files) cost more to build, send and plan than the
 * statement's own work. Throws on anything that is not a uuid (the literal must not be able to carry more).
 */
export const uuidArrayParam = (ids: readonly string[]): SQL => arrayParam(ids, 'uuid');

/** A bigint[] bound as one parameter (its text form), like `uuidArrayParam`; throws on anything but safe integers. */
export const bigintArrayParam = (ids: readonly number[]): SQL => arrayParam(ids, 'bigint');

/**
 * `column = id` for a uuid column and an id from a request: an index lookup (comparing `column::text`
 * instead reads every row of the tenant), case-insensitive as uuids are, and false for a string that is
 * not a uuid (so a bad id finds nothing rather than failing the cast).
 */
export function uuidEquals(column: AnyPgColumn, id: string): SQL {
  return UUID.test(id) ? sql`${column} = ${id}::uuid` : sql`false`;
}

type ArrayElementType = 'uuid' | 'text' | 'bigint' | 'integer' | 'boolean' | 'date';

const QUOTED = /["\\]/g;

/**
 * An array of `type` bound as one parameter (its text form, nulls as NULL), for statements over many rows
 * (`unnest` of several in step): one parameter per value costs more to build, send and plan than the work.
 * Text is quoted and escaped, so a value cannot carry more than itself; uuids must be uuids and numbers safe
 * integers (throws otherwise).
 */
export function arrayParam(values: readonly (string | number | boolean | null)[], type: ArrayElementType): SQL {
  const elements = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) elements[i] = 'NULL';
    else if (typeof value === 'string') {
      if (type === 'uuid') {
        if (!UUID.test(value)) throw new Error(`not a uuid: ${value}`);
        elements[i] = value;
      } else elements[i] = `"${value.replace(QUOTED, '\\$&')}"`;
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
      elements[i] = String(value);
    } else elements[i] = value ? 't' : 'f';
  }

  return sql`${`{${elements.join(',')}}`}::${sql.raw(type)}[]`;
}

type ColumnValue = string | number | boolean | null;

/**
 * `rows` rows bound column by column and read in step by `unnest` as `alias`: each column one array parameter
 * (`arrayParam`), except a column whose values are all the same (a batch's device folder, counters that are all
 * 0, ids none of the rows has), bound once as one value: nothing to build, send, parse or unnest for it.
 * Answers the FROM item, each column's expression (`alias.name`, or the value) and `list`, every column as its
 * name (a select list).
 */
export function unnestColumns<K extends string>(
  alias: string,
  rows: number,
  // `array`: the values' `arrayParam`, when the statement binds it elsewhere too (built once).
  columns: Record<K, { type: ArrayElementType; values: readonly ColumnValue[]; array?: SQL }>,
): { from: SQL; column: Record<K, SQL>; list: SQL } {
  const arrays: SQL[] = [];
  const names: string[] = [];
  const column = {} as Record<K, SQL>;
  for (const name of Object.keys(columns) as K[]) {
    const { type, values, array } = columns[name];
    const first = values[0] ?? null;
    if (values.length === rows && values.every((v) => v === first)) {
      if (first !== null && typeof first === 'number' && !Number.isSafeInteger(first)) throw new Error(`not an integer: ${first}`);
      column[name] = first === null ? sql`null::${sql.raw(type)}` : sql`${first}::${sql.raw(type)}`;
    } else {
      if (values.length !== rows) throw new Error(`column ${name} has ${values.length} values for ${rows} rows`);
      arrays.push(array ?? arrayParam(values, type));
      names.push(name);
      column[name] = sql.raw(`${alias}.${name}`);
    }
  }
  const from =
    arrays.length === 0
      ? sql`generate_series(1, ${rows}::int) as ${sql.raw(alias)}`
      : sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.raw(`${alias}(${names.join(', ')})`)}`;
  const list = sql.join(
    (Object.keys(column) as K[]).map((name) => sql`${column[name]} as ${sql.raw(name)}`),
    sql`, `,
  );

  return { from, column, list };
}

import { sql, type SQL } from 'drizzle-orm';
import { ValidationError } from '../../errors';
import { MAX_EPOCH_MS } from '../bounds.schemas';
import type { FieldType, ScalarField } from '../resource';
import type { Operator, Term } from './ast';

/**
 * Operators allowed per field type (DECISIONS §4). `:` means equals for every non-string type.
 * `~` is the extension for case-insensitive contains (docs/decisions.md "Query language").
 */
const ALLOWED: Record<FieldType, readonly Operator[]> = {
  string: [':', '=', '≠', '∉', '^', '∈', '~'],
  uuid: [':', '=', '≠', '∈'],
  integer: [':', '=', '≠', '>', '≥', '<', '≤', '∈'],
  number: [':', '=', '≠', '>', '≥', '<', '≤', '∈'],
  boolean: [':', '='],
  datetime: [':', '=', '≠', '>', '≥', '<', '≤', '∈'],
  epochMs: [':', '=', '≠', '>', '≥', '<', '≤', '∈'],
  date: [':', '=', '≠', '>', '≥', '<', '≤', '∈'],
  enum: [':', '=', '≠', '∈'],
  stringArray: [':', '=', '∉', '∈'],
  path: [':'],
  json: [],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Years 0001..9999: what both JavaScript ISO strings and PostgreSQL read back unambiguously. */
const MIN_EPOCH_MS = -62135596800000;

type Ctx = { term: Term; field: ScalarField; name: string };

function invalidValue(ctx: Ctx, message: string): ValidationError {
  const { term } = ctx;
  return new ValidationError('search.error.invalidValue', `${message} (field '${ctx.name}' at position ${term.position})`, {
    position: term.position,
    token: term.token,
  });
}

function assertOperator(ctx: Ctx): void {
  const { term, field } = ctx;
  if (ALLOWED[field.type].includes(term.operator)) return;
  const allowed = ALLOWED[field.type].join(' ');
  throw new ValidationError(
    'search.error.invalidOperator',
    `Operator '${term.operator}' is not allowed for ${field.type} field '${ctx.name}' at position ${term.position}; allowed: ${allowed}`,
    { position: term.position, token: term.token, operator: term.operator },
  );
}

/** `%`, `_` and `\` are LIKE wildcards/escape; the default escape character is `\`. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `∈` and the set forms of arrays take a comma-separated list (commas were encoded in the raw value). */
function items(value: string): string[] {
  return value.split(',');
}

function list(values: SQL[]): SQL {
  return sql.join(values, sql`, `);
}

export function compileNullCheck(field: ScalarField, isNull: boolean): SQL {
  const col = field.sql;
  // An empty array counts as "no value": the spec's NULL also means "a collection is empty".
  if (field.type === 'stringArray' || field.type === 'path') {
    return isNull ? sql`(${col} is null or cardinality(${col}) = 0)` : sql`cardinality(${col}) > 0`;
  }
  return isNull ? sql`${col} is null` : sql`${col} is not null`;
}

/** Compiles `field op value` for a scalar field; the operator is already checked against the type. */
export function compileScalarTerm(ctx: Ctx, value: string): SQL {
  assertOperator(ctx);
  // PostgreSQL text cannot hold NUL; reject it here rather than fail in the database.
  if (value.includes('\u0000')) throw invalidValue(ctx, 'A value cannot contain the NUL character');
  switch (ctx.field.type) {
    case 'string':
      return compileString(ctx, value);
    case 'stringArray':
      return compileStringArray(ctx, value);
    case 'path':
      return sql`${ctx.field.sql} @> array[${uuidValue(ctx, value)}]::uuid[]`;
    default:
      return compileComparison(ctx, value);
  }
}

/**
 * The spec's string operators are case-sensitive (spec 1: "Case-sensitive."): `:` and `∉` are LIKE,
 * `^` a LIKE prefix. `~` (the extension) is ILIKE. None of the contains forms can use a btree index
 * (PGlite has no pg_trgm); lists narrow by their own indexed conditions and filter the rest.
 */
function compileString(ctx: Ctx, value: string): SQL {
  const col = ctx.field.sql;
  switch (ctx.term.operator) {
    case ':':
      return sql`${col} like ${`%${escapeLike(value)}%`}`;
    case '~':
      return sql`${col} ilike ${`%${escapeLike(value)}%`}`;
    case '∉':
      return sql`(${col} is null or ${col} not like ${`%${escapeLike(value)}%`})`;
    case '^':
      return sql`${col} like ${`${escapeLike(value)}%`}`;
    default:
      return compileComparison(ctx, value);
  }
}

function compileStringArray(ctx: Ctx, value: string): SQL {
  const col = ctx.field.sql;
  const set = value === '' ? [] : items(value);
  const array = sql`array[${list(set.map((v) => sql`${v}`))}]::text[]`;
  switch (ctx.term.operator) {
    case ':':
      return sql`${col} @> array[${value}]::text[]`;
    case '∉':
      return sql`not coalesce(${col} @> array[${value}]::text[], false)`;
    case '=':
      return sql`(${col} @> ${array} and ${col} <@ ${array})`;
    default:
      return sql`${col} && ${array}`;
  }
}

/** `= ≠ > ≥ < ≤ ∈` (and `:` as equals) for every non-string scalar type, plus strings' `=`, `≠`, `∈`. */
function compileComparison(ctx: Ctx, value: string): SQL {
  const col = ctx.field.sql;
  const op = ctx.term.operator;
  if (op === '∈') return sql`${col} in (${list(items(value).map((v) => bindValue(ctx, v)))})`;
  const bound = bindValue(ctx, value);
  switch (op) {
    case '≠':
      // Rows without a value are "not equal" too.
      return sql`${col} is distinct from ${bound}`;
    case '>':
      return sql`${col} > ${bound}`;
    case '≥':
      return sql`${col} >= ${bound}`;
    case '<':
      return sql`${col} < ${bound}`;
    case '≤':
      return sql`${col} <= ${bound}`;
    default:
      return sql`${col} = ${bound}`;
  }
}

/** Validates one value for the field's type and returns it as a bound, typed parameter. */
function bindValue(ctx: Ctx, value: string): SQL {
  switch (ctx.field.type) {
    case 'uuid':
      return sql`${uuidValue(ctx, value)}`;
    case 'integer':
      // Cast to bigint: an int4 column still uses its index (int48 operators) and never overflows.
      return sql`${integerValue(ctx, value)}::bigint`;
    case 'number':
      return sql`${numberValue(ctx, value)}::numeric`;
    case 'boolean':
      return sql`${booleanValue(ctx, value)}`;
    case 'datetime':
    case 'epochMs':
      return sql`${instantValue(ctx, value).toISOString()}::timestamptz`;
    case 'date':
      return sql`${instantValue(ctx, value).toISOString().slice(0, 10)}::date`;
    case 'enum':
      return sql`${enumValue(ctx, value)}`;
    default:
      return sql`${value}`;
  }
}

function uuidValue(ctx: Ctx, value: string): string {
  if (!UUID.test(value)) throw invalidValue(ctx, `'${value}' is not a valid UUID`);
  return value.toLowerCase();
}

function integerValue(ctx: Ctx, value: string): string {
  const text = value.trim();
  if (!INTEGER.test(text)) throw invalidValue(ctx, `'${value}' is not an integer`);
  const n = BigInt(text);
  if (n < INT64_MIN || n > INT64_MAX) throw invalidValue(ctx, `'${value}' is out of the 64-bit integer range`);
  return n.toString();
}

function numberValue(ctx: Ctx, value: string): string {
  const text = value.trim();
  if (!NUMBER.test(text) || !Number.isFinite(Number(text))) throw invalidValue(ctx, `'${value}' is not a number`);
  return text;
}

function booleanValue(ctx: Ctx, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidValue(ctx, `'${value}' is not a boolean; use true or false`);
}

function enumValue(ctx: Ctx, value: string): string {
  const allowed = ctx.field.enumValues ?? [];
  if (!allowed.includes(value)) throw invalidValue(ctx, `'${value}' is not one of ${allowed.join(', ')}`);
  return value;
}

/** Epoch milliseconds or an ISO-8601 date/date-time; a date-time without offset is read as UTC. */
function instantValue(ctx: Ctx, value: string): Date {
  const text = value.trim();
  let ms = Number.NaN;
  if (INTEGER.test(text)) ms = Number(text);
  else if (ISO_8601.test(text)) ms = Date.parse(withUtcDefault(text));
  if (!Number.isInteger(ms) || ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS) {
    throw invalidValue(ctx, `'${value}' is neither epoch milliseconds nor an ISO-8601 date`);
  }
  return new Date(ms);
}

function withUtcDefault(iso: string): string {
  const upper = iso.toUpperCase();
  if (!upper.includes('T') || /(Z|[+-]\d{2}:?\d{2})$/.test(upper)) return upper;
  return `${upper}Z`;
}

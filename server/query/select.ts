import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ValidationError } from '../errors';
import { toWireValue } from './convert';
import { limitError, QUERY_LIMITS } from './limits';
import { aliasNamer, joinRelation, scopeOf, type AnyResource, type Scope } from './relations';
import type { FieldDefinition, FieldType } from './resource';

/**
 * `select` projection (spec 1 "Projection parameter select", DECISIONS §4).
 *
 * Nesting "at most two levels" is read as: level 1 is the resource's own fields, level 2 the fields
 * of a to-one relation, so `a,rel(b,c)` is allowed and `rel(a,rel2(b))` is a 400
 * (`select.error.tooDeep`). `rel` without parentheses means `rel(*)`; `*` may be combined with
 * names (`*,rel(a)`) and used inside a relation (`rel(*)`). Collections (to-many relations) are
 * not selectable. Keys come out in the resource's declaration order with `id` first.
 */

export type SelectItem = { name: string; position: number; children?: SelectItem[] };

type ProjectedField = {
  key: string;
  sql: SQL;
  type: FieldType | 'object';
  /** Named in `select`: kept in the response even when null. */
  explicit: boolean;
  /** For a to-one relation: the projected fields of the related row. */
  children?: ProjectedField[];
  /** The field's own conversion to the wire form (`ScalarField.toWire`). */
  toWire?: (value: unknown) => unknown;
};

export type Projection = ProjectedField[];

/** Parses `select` into items; undefined for `*`, empty or absent. */
export function parseSelect(select: string | undefined): SelectItem[] | undefined {
  if (select !== undefined && select.length > QUERY_LIMITS.selectLength) {
    const limit = QUERY_LIMITS.selectLength;
    throw limitError('select.error.tooLong', `The select is ${select.length} characters long; at most ${limit} are allowed`, {
      position: limit,
      token: '',
      limit,
    });
  }
  if (select === undefined || select.trim() === '' || select.trim() === '*') return undefined;
  return new SelectParser(select).parse();
}

export function buildProjection(resource: AnyResource, select?: string, table?: PgTable): Projection {
  return project(scopeOf(resource, table), parseSelect(select), 1, aliasNamer('p'));
}

/** The SELECT list for a projection: `<expr> as "key", ...`. */
export function selectList(projection: Projection): SQL {
  return sql.join(
    projection.map((field) => sql`${field.sql} as ${sql.identifier(field.key)}`),
    sql`, `,
  );
}

/** Converts one result row to the response object: wire formats, nulls omitted unless selected by name. */
export function toJson(projection: Projection, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of projection) {
    const value = row[field.key];
    if (value === null || value === undefined) {
      if (field.explicit) out[field.key] = null;
      continue;
    }
    if (field.children) out[field.key] = toJson(field.children, parseJsonObject(value));
    else {
      const wire = toWireValue(field.type as FieldType, value);
      out[field.key] = field.toWire ? field.toWire(wire) : wire;
    }
  }
  return out;
}

function parseJsonObject(value: unknown): Record<string, unknown> {
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

function project(scope: Scope, items: SelectItem[] | undefined, level: number, nextAlias: () => string): Projection {
  const wanted = new Map<string, SelectItem | undefined>();
  if (Object.hasOwn(scope.fields, 'id')) wanted.set('id', undefined);
  if (!items || items.some((item) => item.name === '*')) {
    for (const [key, field] of Object.entries(scope.fields)) {
      if (isDefault(field)) wanted.set(key, wanted.get(key));
    }
  }
  for (const item of items ?? []) {
    if (item.name !== '*') wanted.set(item.name, checkSelectable(scope, item, level));
  }
  const projection: Projection = [];
  for (const [key, field] of Object.entries(scope.fields)) {
    if (!wanted.has(key)) continue;
    const item = wanted.get(key);
    projection.push(projectField(scope, key, field, item, level, nextAlias));
  }
  return projection;
}

function isDefault(field: FieldDefinition): boolean {
  return field.kind === 'scalar' && field.selectable !== false && !field.selectOnly;
}

function checkSelectable(scope: Scope, item: SelectItem, level: number): SelectItem {
  const field = Object.hasOwn(scope.fields, item.name) ? scope.fields[item.name] : undefined;
  const fail = (reason: string) =>
    new ValidationError('select.error.unknownField', `${reason} (select position ${item.position})`, {
      position: item.position,
      token: item.name,
    });
  if (!field || field.selectable === false) throw fail(`Unknown field '${item.name}' on ${scope.resource.name}`);
  if (field.kind === 'scalar' && item.children) throw fail(`Field '${item.name}' on ${scope.resource.name} is not a relation`);
  if (field.kind === 'relation') {
    if (field.cardinality === 'many') throw fail(`The collection '${item.name}' on ${scope.resource.name} cannot be selected`);
    if (level >= 2) {
      throw new ValidationError(
        'select.error.tooDeep',
        `Select is limited to 2 levels; '${item.name}' at position ${item.position} is a third`,
        { position: item.position, token: item.name },
      );
    }
  }
  return item;
}

function projectField(
  scope: Scope,
  key: string,
  field: FieldDefinition,
  item: SelectItem | undefined,
  level: number,
  nextAlias: () => string,
): ProjectedField {
  const explicit = item !== undefined;
  if (field.kind === 'scalar')
    return { key, sql: sql`${field.sql}`, type: field.type, explicit, ...(field.toWire ? { toWire: field.toWire } : {}) };
  if (field.sameRow) {
    const children = project(scopeOf(field.target, scope.table), item?.children, level + 1, nextAlias);

    return { key, sql: sql`case when ${field.sameRow} then ${jsonObject(children)} end`, type: 'object', explicit, children };
  }
  const joined = joinRelation(field, nextAlias());
  const children = project(joined, item?.children, level + 1, nextAlias);
  const object = jsonObject(children);
  // limit 1 keeps a misdeclared (non-unique) relation from failing the whole read.
  const subquery = sql`(select ${object} from ${joined.from} where ${joined.on} limit 1)`;
  return { key, sql: subquery, type: 'object', explicit, children };
}

/** json_build_object takes at most 100 arguments; wider objects are merged from jsonb chunks. */
function jsonObject(fields: Projection): SQL {
  const pairs = fields.map((f) => sql`${f.key}::text, ${f.sql}`);
  if (pairs.length <= 50) return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
  const chunks: SQL[] = [];
  for (let i = 0; i < pairs.length; i += 50) chunks.push(sql`jsonb_build_object(${sql.join(pairs.slice(i, i + 50), sql`, `)})`);
  return sql.join(chunks, sql` || `);
}

class SelectParser {
  private i = 0;

  constructor(private readonly input: string) {}

  parse(): SelectItem[] {
    const items = this.list(1);
    this.skipSpace();
    if (this.i < this.input.length) throw this.error(`Unexpected '${this.input[this.i]}' at position ${this.i}`);
    return items;
  }

  private list(depth: number): SelectItem[] {
    const items = [this.item(depth)];
    for (this.skipSpace(); this.input[this.i] === ','; this.skipSpace()) {
      this.i++;
      items.push(this.item(depth));
    }
    return items;
  }

  private item(depth: number): SelectItem {
    this.skipSpace();
    const position = this.i;
    const name = /^(\*|[A-Za-z_][A-Za-z0-9_]*)/.exec(this.input.slice(this.i))?.[0];
    if (!name) {
      const found = this.i < this.input.length ? `'${this.input[this.i]}'` : 'the end';
      throw this.error(`Expected a field name at position ${this.i}, found ${found}`);
    }
    this.i += name.length;
    this.skipSpace();
    if (this.input[this.i] !== '(' || name === '*') return { name, position };
    if (depth >= 2) {
      throw new ValidationError('select.error.tooDeep', `Select is limited to 2 levels; '${name}' at position ${position} is a third`, {
        position,
        token: name,
      });
    }
    this.i++;
    const children = this.list(depth + 1);
    this.skipSpace();
    if (this.input[this.i] !== ')') throw this.error(`Expected ')' to close '${name}(' at position ${this.i}`);
    this.i++;
    return { name, position, children };
  }

  private skipSpace(): void {
    while (this.i < this.input.length && /\s/.test(this.input[this.i]!)) this.i++;
  }

  private error(message: string): ValidationError {
    return new ValidationError('select.error.syntax', message, { position: this.i, token: this.input[this.i] ?? '' });
  }
}

/**
 * Whether an answer shaped by `select` carries the top-level field `name`: the default shape (no `select`),
 * `*`, or a `select` naming it. For computed columns a service adds beside the resource's own (`readOnly`).
 */
export function selectsField(select: string | undefined, name: string): boolean {
  if (select === undefined || select.trim() === '') return true;
  const names = select.split(',').map((s) => s.trim());

  return names.includes('*') || names.includes(name);
}

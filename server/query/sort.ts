import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ValidationError } from '../errors';
import { limitError, QUERY_LIMITS } from './limits';
import { aliasNamer, joinRelation, scopeOf, type AnyResource, type Scope } from './relations';

/**
 * `sort` (spec 1 "Pagination and sorting parameters", DECISIONS §4). Each value is
 * `field[,asc|desc]` (direction case-insensitive, default asc); repeat the parameter for more keys. Nested `rel.field` sorts by a field of a to-one relation
 * through a correlated subquery. `id asc` is appended unless `id` is already a key, so pages are
 * stable. Nulls follow PostgreSQL's default (last ascending, first descending).
 */
export type SortKey = { path: string[]; direction: 'asc' | 'desc' };

export type CompiledSort = {
  orderBy: SQL[];
  /** The `sort` parameters as given, for the page envelope; undefined when none were given. */
  echo?: string;
};

/** A field name of `sort` and `search`; a path chains up to `QUERY_LIMITS.pathSegments` of them with `.`. */
const FIELD_NAME = '[A-Za-z_][A-Za-z0-9_]*';
const FIELD_PATH = new RegExp(`^${FIELD_NAME}(\\.${FIELD_NAME})*$`);

/**
 * The syntax of one `sort` value that parseSort accepts, as the OpenAPI pattern states it: a field path (at most
 * `pathSegments` names), optionally `,asc` or `,desc` in any case, spaces around the parts, or nothing at all
 * (an empty value is ignored). Whether the field exists is the resource's question (`sort.error.unknownField`),
 * unless `fields` names the sortable fields of a fixed row shape (the reports): then the pattern lists them.
 */
export const sortValuePattern = (fields?: readonly string[]) =>
  `^\\s*(?:${fields ? `(?:${fields.join('|')})` : `${FIELD_NAME}(?:\\.${FIELD_NAME}){0,${QUERY_LIMITS.pathSegments - 1}}`}\\s*(?:,\\s*(?:[Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])\\s*)?)?$`;
export const SORT_VALUE_PATTERN = sortValuePattern();

export function parseSort(sort: string | readonly string[] | undefined): SortKey[] {
  const values = typeof sort === 'string' ? [sort] : (sort ?? []);
  if (values.length > QUERY_LIMITS.sortKeys) {
    const limit = QUERY_LIMITS.sortKeys;
    throw limitError('sort.error.tooMany', `${values.length} sort parameters given; at most ${limit} are allowed`, {
      position: limit,
      token: values[limit]!,
      limit,
    });
  }
  return values.flatMap(parseSortValue);
}

export function compileSort(resource: AnyResource, sort: string | readonly string[] | undefined, table?: PgTable): CompiledSort {
  const keys = parseSort(sort);
  const scope = scopeOf(resource, table);
  const nextAlias = aliasNamer('o');
  const orderBy = keys.map((key) => {
    const expression = sortExpression(scope, key.path, 0, nextAlias);
    return key.direction === 'desc' ? sql`${expression} desc` : sql`${expression} asc`;
  });
  const hasId = keys.some((key) => key.path.length === 1 && key.path[0] === 'id');
  const id = scope.fields.id;
  if (!hasId && id?.kind === 'scalar') orderBy.push(sql`${id.sql} asc`);
  const given = (typeof sort === 'string' ? [sort] : (sort ?? [])).filter((v) => v.trim() !== '');
  return { orderBy, echo: given.length ? given.join(';') : undefined };
}

function parseSortValue(value: string): SortKey[] {
  if (value.length > QUERY_LIMITS.sortLength) {
    const limit = QUERY_LIMITS.sortLength;
    throw limitError('sort.error.tooLong', `A sort value is ${value.length} characters long; at most ${limit} are allowed`, {
      position: limit,
      token: '',
      limit,
    });
  }
  if (value.trim() === '') return [];
  const [field = '', direction = 'asc', ...rest] = value.split(',').map((part) => part.trim());
  if (rest.length > 0 || !FIELD_PATH.test(field)) {
    throw new ValidationError('sort.error.invalid', `Invalid sort '${value}'; expected 'field,asc' or 'field,desc'`, {
      token: value,
    });
  }
  const path = field.split('.');
  if (path.length > QUERY_LIMITS.pathSegments) {
    const limit = QUERY_LIMITS.pathSegments;
    throw limitError('sort.error.tooDeep', `Sort field '${field}' chains more than ${limit} fields`, { position: 0, token: field, limit });
  }
  const dir = direction.toLowerCase();
  if (dir !== 'asc' && dir !== 'desc') {
    throw new ValidationError('sort.error.invalidDirection', `Invalid sort direction '${direction}'; use asc or desc`, {
      token: direction,
    });
  }
  return [{ path, direction: dir }];
}

function sortExpression(scope: Scope, path: string[], depth: number, nextAlias: () => string): SQL {
  const name = path[depth]!;
  const field = Object.hasOwn(scope.fields, name) ? scope.fields[name] : undefined;
  const isLast = depth === path.length - 1;
  const fail = (reason: string) =>
    new ValidationError('sort.error.unknownField', `${reason} (sort '${path.join('.')}')`, { token: path.join('.'), field: name });
  if (!field) throw fail(`Unknown field '${name}' on ${scope.resource.name}`);
  if (field.kind === 'scalar') {
    if (!isLast) throw fail(`Field '${name}' on ${scope.resource.name} is not a relation`);
    if (!(field.sortable ?? field.type !== 'json') || field.type === 'json') {
      throw fail(`Field '${name}' on ${scope.resource.name} is not sortable`);
    }
    return sql`${field.sql}`;
  }
  if (field.cardinality === 'many') throw fail(`Cannot sort by the collection '${name}' on ${scope.resource.name}`);
  if (isLast) throw fail(`Sort by a field of '${name}', e.g. '${name}.id'`);
  const joined = joinRelation(field, nextAlias());
  const inner = sortExpression(joined, path, depth + 1, nextAlias);
  return sql`(select ${inner} from ${joined.from} where ${joined.on} limit 1)`;
}

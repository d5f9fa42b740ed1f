import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * How a resource exposes its fields to `search`, `select` and `sort`.
 * A resource module declares this once next to its table; the query compiler
 * (server/query) turns requests into one parameterised SQL statement from it.
 */

/** Wire/semantic type of a field; decides the operators allowed and the JSON output form. */
export type FieldType =
  | 'string' // text; `:` contains and `∉` not contains (case-sensitive), `=`, `≠`, `^`, `∈`; `~` contains ignoring case
  | 'uuid' // string id; `=`, `≠`, `∈`, `:` (= equality)
  | 'integer' // int/bigint (bigint ids are emitted as JSON numbers)
  | 'number' // double precision / numeric
  | 'boolean'
  | 'datetime' // timestamptz, emitted as ISO-8601 UTC string
  | 'epochMs' // timestamptz, emitted as epoch milliseconds
  | 'date' // date, emitted as yyyy-MM-dd
  | 'enum' // text constrained to `enumValues`
  | 'stringArray' // text[] (tags): `:` contains element, `=` equal set, `∉` not contains, `∈` contains any
  | 'path' // uuid[] of ancestor folder ids: `:` = has ancestor (recursive folder query); wire: ids joined by `/` (folder-path.ts)
  | 'json'; // jsonb; selectable only, never searchable or sortable

export type ScalarField = {
  kind: 'scalar';
  type: FieldType;
  /** The column or SQL expression in the context of the (possibly aliased) table. */
  sql: AnyPgColumn | SQL;
  enumValues?: readonly string[];
  /** Defaults: searchable and sortable true except for json; selectable true. */
  searchable?: boolean;
  sortable?: boolean;
  selectable?: boolean;
  /** Returned only when named in `select` (computed or costly fields). */
  selectOnly?: boolean;
  /**
   * The value's wire form when SQL cannot give it (after `type`'s own conversion): a jsonb document whose wire
   * form keeps an object's key order, which jsonb does not (a slide's pages keyed by name).
   */
  toWire?: (value: unknown) => unknown;
};

/**
 * A relation of a resource to another one, declared with `relation.one`/`relation.many` inside the resource's
 * `fields(t)`: it closes over `t`, the table instance the field map is built for (the compilers always use a
 * field map with the table it was built for), so only the target's side is a parameter.
 */
export type RelationField = {
  kind: 'relation';
  /** `one`: a to-one relation (selectable as `rel(a,b)`); `many`: a collection (search only). */
  cardinality: 'one' | 'many';
  target: ResourceDefinition<PgTable>;
  /** Correlation between this row and a row of the target (`target`, an alias of its table). */
  on: (target: PgTable) => SQL;
  /** For to-one relations: the SQL that is null when the relation is absent (usually the FK column). */
  foreignKey?: AnyPgColumn | SQL;
  /**
   * A to-one "relation" whose fields are columns of this same row (an object built from them, e.g. a
   * file's `creator`): `select` builds the object from the row itself instead of looking the row up
   * again. The condition says when the object is present. `on` still serves search and sort.
   */
  sameRow?: SQL;
  selectable?: boolean;
  selectOnly?: boolean;
};

type RelationOptions<Target extends PgTable> = {
  /** The correlation, given the target's table (typed: a column the target does not have is a compile error). */
  on: (target: Target) => SQL;
  selectable?: boolean;
  selectOnly?: boolean;
};

/**
 * Declares a relation field with its target typed: `on` receives the target resource's own table type, so the
 * correlation needs no casts. `one`: a to-one relation (`foreignKey`, `sameRow` as on RelationField); `many`: a
 * collection (search only).
 */
export const relation = {
  one: <Target extends PgTable>(
    target: ResourceDefinition<Target>,
    options: RelationOptions<Target> & Pick<RelationField, 'foreignKey' | 'sameRow'>,
  ): RelationField => relationField('one', target, options),
  many: <Target extends PgTable>(target: ResourceDefinition<Target>, options: RelationOptions<Target>): RelationField =>
    relationField('many', target, options),
};

function relationField<Target extends PgTable>(
  cardinality: 'one' | 'many',
  target: ResourceDefinition<Target>,
  options: RelationOptions<Target>,
): RelationField {
  // The one place the target's table type is erased: the compilers call `on` with an alias of `target.table`.
  return { kind: 'relation', cardinality, ...options, target, on: options.on as (target: PgTable) => SQL };
}

export type FieldDefinition = ScalarField | RelationField;

export type ResourceDefinition<T extends PgTable = PgTable> = {
  /** The spec's resource name, e.g. `customer`, `file`; used in error messages. */
  name: string;
  table: T;
  /**
   * Field map built for a concrete table instance (the table itself or a drizzle `alias()` of it).
   * Method syntax on purpose: it keeps `ResourceDefinition<typeof myTable>` assignable to
   * `ResourceDefinition<PgTable>`, which relation `target`s need.
   */
  fields(t: T): Record<string, FieldDefinition>;
  /** Maximum `size` for paged reads of this resource (default 1000). */
  maxPageSize?: number;
  /**
   * The column naming the row's tenant (a customer id; a customer's own id for `customer`). A resource
   * with one is read only within a tenant scope: `findPage`, `findOne` and `countMatching` filter by it
   * and refuse to run without a scope.
   */
  tenant?(t: T): AnyPgColumn;
};

export function defineResource<T extends PgTable>(definition: ResourceDefinition<T>): ResourceDefinition<T> {
  return definition;
}

import { sql, type SQL } from 'drizzle-orm';
import { alias, type PgTable } from 'drizzle-orm/pg-core';
import type { FieldDefinition, RelationField, ResourceDefinition } from './resource';

// Resource definitions are generic in their table; the query compiler works on any of them.
export type AnyResource = ResourceDefinition<any>;

/** A resource bound to one table instance (the base table or an alias). */
export type Scope = {
  resource: AnyResource;
  table: PgTable;
  fields: Record<string, FieldDefinition>;
};

/** A to-one or to-many relation opened as an aliased table, ready for a correlated subquery. */
export type JoinedRelation = Scope & {
  /** `"original" "alias"` for the FROM clause. */
  from: SQL;
  /** The correlation between the outer row and the aliased target row. */
  on: SQL;
};

export function scopeOf(resource: AnyResource, table: PgTable = resource.table): Scope {
  return { resource, table, fields: fieldsOf(resource, table) };
}

// Building a field map allocates dozens of column references and SQL templates; it depends only
// on the resource and the table instance, so every compile reuses it (measured: compileSort of a
// 30-field resource 12 → ~2 µs).
const fieldMaps = new WeakMap<PgTable, WeakMap<AnyResource, Record<string, FieldDefinition>>>();

function fieldsOf(resource: AnyResource, table: PgTable): Record<string, FieldDefinition> {
  let byResource = fieldMaps.get(table);
  if (!byResource) {
    byResource = new WeakMap();
    fieldMaps.set(table, byResource);
  }
  let fields = byResource.get(resource);
  if (!fields) {
    fields = resource.fields(table);
    byResource.set(resource, fields);
  }

  return fields;
}

/**
 * Hands out alias names unique within one statement. Each compiler uses its own prefix
 * (search `s`, select `p`, sort `o`) so the parts of one statement never collide,
 * which is what makes self-relations (folder → parent folder) work.
 */
export function aliasNamer(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

/**
 * A drizzle `alias()` plus the FROM item for it. Inside a `sql` template drizzle renders an aliased
 * table as just `"alias"`, so `from ${aliased}` would name a table that does not exist; use `from`.
 */
export function aliasedTable<T extends PgTable>(table: T, aliasName: string): { table: T; from: SQL } {
  // Same table and alias name give an equal alias: reuse it, so its field map is cached too.
  let byName = aliases.get(table);
  if (!byName) {
    byName = new Map();
    aliases.set(table, byName);
  }
  let aliased = byName.get(aliasName);
  if (!aliased) {
    aliased = { table: alias(table, aliasName) as unknown as PgTable, from: sql`${table} ${sql.identifier(aliasName)}` };
    byName.set(aliasName, aliased);
  }

  return aliased as { table: T; from: SQL };
}

const aliases = new WeakMap<PgTable, Map<string, { table: PgTable; from: SQL }>>();

export function joinRelation(relation: RelationField, aliasName: string): JoinedRelation {
  const resource = relation.target;
  const { table, from } = aliasedTable(resource.table, aliasName);
  return { resource, table, fields: fieldsOf(resource, table), from, on: relation.on(table) };
}

export function exists(joined: JoinedRelation, condition?: SQL): SQL {
  const where = condition ? sql`${joined.on} and ${condition}` : joined.on;
  return sql`exists (select 1 from ${joined.from} where ${where})`;
}

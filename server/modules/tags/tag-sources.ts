import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import { definePlugPoint } from '@/server/plug-point';
import type { TagType } from './tags.rules';

/**
 * Where tags of each type live: every module with a `tags text[]` column lists it in its manifest
 * (`tagSources`). Counts, suggestions and the delete guard are SQL over every registered
 * source, so a new tagged module (devices, content, campaigns, messages) plugs in without touching them.
 */
export type TagSource = {
  /** Names the source in error details, e.g. `file`. */
  name: string;
  tagType: TagType;
  table: PgTable;
  tagsColumn: AnyPgColumn;
  customerIdColumn: AnyPgColumn;
};

export const tagSources = definePlugPoint<TagSource>('tagSources', (s) => `${s.tagType}:${s.name}`);

function tagSourcesOf(tagType: TagType): readonly TagSource[] {
  return tagSources.items().filter((s) => s.tagType === tagType);
}

/**
 * `select tag, n` (rows carrying each tag) over every source of `tagType`, limited to the tenant `scope`
 * (a function of the source's customer column) and optionally to one tag. Null when no source exists.
 */
export function tagUsageSql(tagType: TagType, scope: TenantScope, onlyTag?: string): SQL | null {
  const parts = tagSourcesOf(tagType).map((s) => {
    const inScope = scopeCondition(scope, s.customerIdColumn);
    // `tags @> array[tag]` uses the GIN index on the tags column; unnest alone would scan.
    const conditions = [inScope, onlyTag === undefined ? undefined : sql`${s.tagsColumn} @> array[${onlyTag}]::text[]`].filter(
      (c): c is SQL => c !== undefined,
    );
    const where = conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``;
    const tagFilter = onlyTag === undefined ? sql`` : sql` where u.tag = ${onlyTag}`;

    return sql`select u.tag as tag, count(*)::bigint as n from (select unnest(${s.tagsColumn}) as tag from ${s.table}${where}) u${tagFilter} group by u.tag`;
  });
  if (parts.length === 0) return null;

  return sql.join(parts, sql` union all `);
}

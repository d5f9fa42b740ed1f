import { and, eq, sql, type SQL } from 'drizzle-orm';
import { customerScope, scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { tagUsageSql } from './tag-sources';
import type { TagType } from './tags.rules';
import { tags } from './tags.table';

export type TagCountRow = { tagType: TagType; tag: string; count: number; comment: string | null };

/** Registered and used tags of one type with their counts, as a subquery `(tag_type, tag, count, comment)`. */
function tagTableSql(tagType: TagType, scope: TenantScope, keywordPrefix?: string): SQL {
  const like = keywordPrefix === undefined ? undefined : sql`lower(x.tag) like ${`${escapeLike(keywordPrefix.toLowerCase())}%`}`;
  const registered = sql`select ${tags.tag} as tag, max(${tags.comment}) as comment from ${tags}
    where ${and(eq(tags.tagType, tagType), scopeCondition(scope, tags.customerId))} group by ${tags.tag}`;
  const usage = tagUsageSql(tagType, scope);
  const used = usage
    ? sql`select tag, sum(n)::bigint as n from (${usage}) s group by tag`
    : sql`select null::text as tag, 0::bigint as n where false`;

  return sql`select * from (select ${tagType}::text as tag_type, coalesce(r.tag, c.tag) as tag, coalesce(c.n, 0)::bigint as count, r.comment as comment
    from (${registered}) r full join (${used}) c on c.tag = r.tag) x${like ? sql` where ${like}` : sql``}`;
}

/** Every tag of the given types in the scope (ordered by type, then tag). */
export async function selectTagCounts(db: Executor, types: readonly TagType[], scope: TenantScope): Promise<TagCountRow[]> {
  if (types.length === 0) return [];
  const union = sql.join(
    types.map((t) => tagTableSql(t, scope)),
    sql` union all `,
  );

  return await execRows<TagCountRow>(db, sql`select tag_type as "tagType", tag, count, comment from (${union}) u order by tag_type, tag`);
}

/** Tags starting with `prefix` (case-insensitive) over `types`, most used first. */
export async function selectSuggestions(
  db: Executor,
  input: { types: readonly TagType[]; scope: TenantScope; prefix: string; limit: number },
): Promise<string[]> {
  const union = sql.join(
    input.types.map((t) => tagTableSql(t, input.scope, input.prefix)),
    sql` union all `,
  );
  const rows = await execRows<{ tag: string }>(
    db,
    sql`select tag from (${union}) u group by tag order by sum(count) desc, tag asc limit ${input.limit}`,
  );

  return rows.map((r) => r.tag);
}

/** Rows of `tagType` in the customer carrying `tag`, over every registered source. */
export async function countTagUsage(db: Executor, customerId: number, tagType: TagType, tag: string): Promise<number> {
  const usage = tagUsageSql(tagType, customerScope(customerId), tag);
  if (!usage) return 0;
  const [row] = await execRows<{ n: number | string | null }>(db, sql`select coalesce(sum(n), 0)::bigint as n from (${usage}) s`);

  return Number(row?.n ?? 0);
}

export async function insertTag(db: Executor, values: typeof tags.$inferInsert) {
  const [row] = await db.insert(tags).values(values).returning();

  return row!;
}

export async function findTag(db: Executor, key: { customerId: number; tagType: TagType; tag: string }) {
  const [row] = await db.select().from(tags).where(keyCondition(key)).limit(1);

  return row;
}

export async function updateTagComment(db: Executor, key: { customerId: number; tagType: TagType; tag: string }, comment: string | null) {
  const [row] = await db.update(tags).set({ comment }).where(keyCondition(key)).returning();

  return row;
}

export async function deleteTag(db: Executor, key: { customerId: number; tagType: TagType; tag: string }) {
  const [row] = await db.delete(tags).where(keyCondition(key)).returning();

  return row;
}

function keyCondition(key: { customerId: number; tagType: TagType; tag: string }) {
  return and(eq(tags.customerId, key.customerId), eq(tags.tagType, key.tagType), eq(tags.tag, key.tag));
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

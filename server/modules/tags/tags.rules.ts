import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';
import { ValidationError } from '@/server/errors';
import { maxTagsTotalLength, TAG_PATTERN } from './tags.schemas';
import { tags as tagTable, type tagTypes } from './tags.table';

export { maxTagsTotalLength } from './tags.schemas';

export type TagType = (typeof tagTypes)[number];

/** True when one tag satisfies spec 3's format rules (the total-length rule is checked on the list). */
export function isValidTag(tag: string): boolean {
  return TAG_PATTERN.test(tag);
}

/** Validates tags against spec 3's format rules (throws ValidationError `tag.error.invalid`) and returns them de-duplicated. */
export function normalizeTags(tags: readonly string[]): string[] {
  for (const tag of tags) {
    if (typeof tag !== 'string' || !isValidTag(tag)) {
      throw new ValidationError(
        'tag.error.invalid',
        `Invalid tag "${String(tag)}": a tag is not empty, does not start with '-', and holds only letters, digits and - _ # . "`,
        { tag },
      );
    }
  }
  const unique = [...new Set(tags)];
  const total = unique.join(',').length;
  if (total > maxTagsTotalLength) {
    throw new ValidationError('tag.error.invalid', `Tags are at most ${maxTagsTotalLength} characters in total (got ${total})`, {
      length: total,
      limit: maxTagsTotalLength,
    });
  }
  return unique;
}

/** Registers tags used on a row in the per-customer tag registry (insert, ignore existing), in the caller's transaction. */
export async function registerTags(tx: Executor, customerId: number, tagType: TagType, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  // Sorted: concurrent writers then take the registry's row locks in the same order (no deadlock).
  const unique = [...new Set(tags)].sort();
  await tx
    .insert(tagTable)
    .values(unique.map((tag) => ({ customerId, tagType, tag })))
    .onConflictDoNothing();
}

export type TagVerb = 'add' | 'set' | 'remove';

/** A text[] literal built from bound parameters. */
export function textArray(values: readonly string[]): SQL {
  if (values.length === 0) return sql`'{}'::text[]`;

  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * The SQL of a bulk tag verb over a `text[]` tags column (`/api/v2/{file,deviceContent}/tags/{verb}`): the
 * SET clause, the condition that the row actually changes (only those are written and counted), and the
 * condition that the row's tags would exceed the total length (checked before an `add`). `tags` are
 * normalised for add and set; remove takes any tag, so that it can clean up whatever exists.
 */
export function tagVerbSql(column: AnyPgColumn, verb: TagVerb, tags: readonly string[]): { set: SQL; changes: SQL; tooLong: SQL } {
  const list = textArray(tags);
  const target = sql.identifier(column.name);
  const merged = sql`array(select x from unnest(${column} || ${list}) with ordinality as u(x, n) group by x order by min(n))`;
  const [set, changes] = {
    add: [sql`${target} = ${merged}`, sql`not (${column} @> ${list})`],
    set: [sql`${target} = ${list}`, sql`${column} is distinct from ${list}`],
    remove: [sql`${target} = array(select x from unnest(${column}) as u(x) where x <> all(${list}))`, sql`${column} && ${list}`],
  }[verb] as [SQL, SQL];

  return { set, changes, tooLong: sql`length(array_to_string(${merged}, ',')) > ${maxTagsTotalLength}` };
}

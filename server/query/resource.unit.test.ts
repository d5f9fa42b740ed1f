import { eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileSearch } from './search/compile';
import { defineResource, relation } from './resource';
import { folderResource, folders, items, teamResource } from './test/fixtures';

const dialect = new PgDialect();

describe('relation.one / relation.many', () => {
  it('hands `on` an alias of the target table and closes over the declaring row', () => {
    const resource = defineResource({
      name: 'item',
      table: items,
      fields: (t) => ({
        id: { kind: 'scalar', type: 'uuid', sql: t.id },
        folder: relation.one(folderResource, { on: (target) => eq(target.id, t.folderId), foreignKey: t.folderId }),
      }),
    });
    const query = dialect.sqlToQuery(compileSearch(resource, 'folder.name=a')!);

    expect(query.sql).toBe('exists (select 1 from "folders" "s1" where "s1"."id" = "items"."folder_id" and "s1"."name" = $1)');
    expect(dialect.sqlToQuery(compileSearch(resource, 'folder=NULL')!).sql).toBe('"items"."folder_id" is null');
  });

  it('types the target: a column the target does not have, or to-one options on a collection, do not compile', () => {
    // Type-level checks: each `@ts-expect-error` fails `npm run typecheck` if the typing is loosened (the target as any table).
    const resource = defineResource({
      name: 'item',
      table: items,
      fields: (t) => ({
        // @ts-expect-error `folderId` is a column of items, not of the target folders
        folder: relation.one(folderResource, { on: (target) => eq(target.folderId, t.folderId) }),
        // @ts-expect-error a team has no `parentId`
        team: relation.one(teamResource, { on: (target) => eq(target.parentId, t.id) }),
        // @ts-expect-error a collection has no foreign key
        children: relation.many(folderResource, { on: (target) => eq(target.parentId, t.folderId), foreignKey: t.folderId }),
      }),
    });

    expect(Object.keys(resource.fields(items))).toEqual(['folder', 'team', 'children']);
    expect(folders.parentId.name).toBe('parent_id');
  });
});

import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors';
import { buildProjection, parseSelect, selectList, toJson } from './select';
import { itemResource } from './test/fixtures';

const dialect = new PgDialect();
const keys = (select?: string) => buildProjection(itemResource, select).map((f) => f.key);

function failure(select: string) {
  try {
    buildProjection(itemResource, select);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error(`expected ${select} to fail`);
}

describe('select', () => {
  const defaults = [
    'id',
    'name',
    'description',
    'count',
    'big',
    'price',
    'active',
    'createdAt',
    'modifiedAt',
    'day',
    'status',
    'tags',
    'folderPath',
    'meta',
    'folderId',
  ];

  it('selects all default fields for *, empty or absent', () => {
    expect(keys()).toEqual(defaults);
    expect(keys('*')).toEqual(defaults);
    expect(keys(' ')).toEqual(defaults);
  });

  it('always includes id and keeps declaration order', () => {
    expect(keys('name')).toEqual(['id', 'name']);
    expect(keys('count, name')).toEqual(['id', 'name', 'count']);
  });

  it('adds select-only fields and relations only when named', () => {
    expect(keys('secret,nameLength')).toEqual(['id', 'secret', 'nameLength']);
    expect(keys('*,folder(name)')).toEqual([...defaults, 'folder']);
  });

  it('builds a correlated json subquery for a to-one relation', () => {
    const projection = buildProjection(itemResource, 'name,folder(name)');
    expect(dialect.sqlToQuery(selectList(projection))).toMatchObject({
      sql:
        '"items"."id" as "id", "items"."name" as "name", (select json_build_object($1::text, "p1"."id", $2::text, "p1"."name") ' +
        'from "folders" "p1" where "p1"."id" = "items"."folder_id" limit 1) as "folder"',
      params: ['id', 'name'],
    });
  });

  it('treats a relation without parentheses as rel(*)', () => {
    const folder = buildProjection(itemResource, 'folder').find((f) => f.key === 'folder');
    expect(folder?.children?.map((c) => c.key)).toEqual(['id', 'name', 'parentId']);
  });

  it.each([
    ['nope', 'select.error.unknownField', 0],
    ['name,nope', 'select.error.unknownField', 5],
    ['hidden', 'select.error.unknownField', 0],
    ['teamAssignments', 'select.error.unknownField', 0],
    ['name(a)', 'select.error.unknownField', 0],
    ['folder(nope)', 'select.error.unknownField', 7],
    ['folder(parent(name))', 'select.error.tooDeep', 7],
    ['folder(parent)', 'select.error.tooDeep', 7],
    ['name,', 'select.error.syntax', 5],
    ['folder(', 'select.error.syntax', 7],
    ['folder(name', 'select.error.syntax', 11],
    ['folder()', 'select.error.syntax', 7],
    ['name)', 'select.error.syntax', 4],
    ['na-me', 'select.error.syntax', 2],
  ])('%s → %s at %i', (select, key, position) => {
    const error = failure(select);
    expect(error.status).toBe(400);
    expect(error.key).toBe(key);
    expect(error.details?.position).toBe(position);
  });

  it('parses nested items', () => {
    expect(parseSelect('a, rel(b, c)')).toEqual([
      { name: 'a', position: 0 },
      {
        name: 'rel',
        position: 3,
        children: [
          { name: 'b', position: 7 },
          { name: 'c', position: 10 },
        ],
      },
    ]);
  });
});

describe('toJson', () => {
  it('omits nulls unless named and converts wire formats from either driver', () => {
    const projection = buildProjection(itemResource, 'description,count,big,createdAt,modifiedAt,day,price,folder(name,parentId)');
    const row = {
      id: 'x',
      description: null,
      count: null,
      big: '9007199254740991',
      createdAt: '2026-11-21 13:00:00.5+01',
      modifiedAt: new Date('2026-11-21T12:00:00Z'),
      day: '2026-11-21',
      price: '1.5',
      folder: { id: 'f', name: 'F', parentId: null },
    };
    expect(toJson(projection, row)).toEqual({
      id: 'x',
      description: null,
      count: null,
      big: 9007199254740991,
      createdAt: '2026-11-21T12:00:00.500Z',
      modifiedAt: Date.parse('2026-11-21T12:00:00Z'),
      day: '2026-11-21',
      price: 1.5,
      folder: { id: 'f', name: 'F', parentId: null },
    });
  });

  it('omits unnamed nulls and normalises json_build_object timestamps', () => {
    const projection = buildProjection(itemResource);
    const out = toJson(projection, {
      id: 'x',
      name: 'n',
      description: null,
      big: 12n,
      createdAt: '2026-11-21T17:30:00.123456+05:30',
      modifiedAt: '2026-11-21 12:00:00+00',
    });
    expect(out).toEqual({
      id: 'x',
      name: 'n',
      big: 12,
      createdAt: '2026-11-21T12:00:00.123Z',
      modifiedAt: Date.parse('2026-11-21T12:00:00Z'),
    });
  });

  it("applies a field's own wire conversion (toWire) after the type's, never to a null", () => {
    const resource = {
      ...itemResource,
      fields: (t: typeof itemResource.table) => ({
        ...itemResource.fields(t),
        meta: { kind: 'scalar' as const, type: 'json' as const, sql: t.meta, toWire: (v: unknown) => ({ wrapped: v }) },
      }),
    };
    const projection = buildProjection(resource, 'meta,name');
    expect(toJson(projection, { id: 'x', meta: { a: 1 }, name: 'n' })).toEqual({ id: 'x', meta: { wrapped: { a: 1 } }, name: 'n' });
    expect(toJson(projection, { id: 'x', meta: null, name: 'n' })).toEqual({ id: 'x', meta: null, name: 'n' });
  });

  it('refuses a select longer than 4 096 characters', () => {
    const long = Array.from({ length: 1000 }, () => 'name').join(',');
    expect(keys(long.slice(0, 4096).replace(/,[^,]*$/, ''))).toEqual(['id', 'name']);
    expect(failure(long)).toMatchObject({ key: 'select.error.tooLong', details: { position: 4096, limit: 4096 } });
  });
});

describe('selectsField', () => {
  it('is true for the default shape, *, and a select naming the field', async () => {
    const { selectsField } = await import('./select');
    expect([undefined, '', ' ', '*', 'name,readOnly', 'name, *'].map((s) => selectsField(s, 'readOnly'))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(selectsField('name,id', 'readOnly')).toBe(false);
  });
});

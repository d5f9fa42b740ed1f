import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../errors';
import { countMatching, findOne, findPage } from './find-page';
import type { AnyResource } from './relations';
import { folderResource, FOLDER_DDL, itemResource, items, teamAssignmentResource } from './test/fixtures';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const [I1, I2, I3, I4] = [id(1), id(2), id(3), id(4)];
const R = 'f0000000-0000-4000-8000-000000000001'; // root
const C = 'f0000000-0000-4000-8000-000000000002'; // child of R
const G = 'f0000000-0000-4000-8000-000000000003'; // child of C
const O = 'f0000000-0000-4000-8000-000000000004'; // other root
const T1 = 'a0000000-0000-4000-8000-000000000001';
const T2 = 'a0000000-0000-4000-8000-000000000002';

const client = new PGlite();
const db = drizzle(client);

beforeAll(async () => {
  await client.exec(FOLDER_DDL);
  await client.exec(`
    insert into folders values ('${R}', 'Root', null), ('${C}', 'Child', '${R}'), ('${G}', 'Grandchild', '${C}'), ('${O}', 'Other', null);
    insert into teams values ('${T1}', 'Team one'), ('${T2}', 'Team two');
    insert into items (id, name, description, count, big, price, active, created_at, modified_at, day, status, tags, folder_path, meta, folder_id, secret) values
      ('${I1}', 'Alpha Widget', 'first', 1, 9007199254740993, 1.5, true, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-01', 'LIVE', '{red,blue}', '{${R},${C}}', '{"a":1}', '${C}', 's1'),
      ('${I2}', 'beta_gadget', null, 2, null, 2.5, false, '2026-02-01T00:00:00Z', null, '2026-02-01', 'DRAFT', '{red}', '{${R},${C},${G}}', null, '${G}', null),
      ('${I3}', 'Gamma 100%', null, 3, null, null, true, '2026-03-01T00:00:00Z', null, null, 'LIVE', '{}', '{${O}}', null, '${O}', null),
      ('${I4}', 'delta', null, null, null, null, true, '2026-04-01T12:30:00.250Z', null, null, null, null, null, null, null, null);
    insert into team_assignments values ('${I1}', '${T1}'), ('${I1}', '${T2}'), ('${I2}', '${T2}');
  `);
  // Output must not depend on the session time zone.
  await client.exec(`set time zone 'Asia/Kolkata'`);
});

afterAll(async () => {
  await client.close();
});

async function ids(search: string, resource: AnyResource = itemResource): Promise<string[]> {
  const page = await findPage(db, { resource, search, select: 'id', sort: ['id,asc'], size: 50 });
  return page.content.map((row) => row.id as string);
}

describe('search on real data', () => {
  it.each([
    // Case-sensitive (spec 1); `~` is the extension that ignores case.
    ['name:Widget', [I1]],
    ['name:widget', []],
    ['name~widget', [I1]],
    ['name~WIDGET|name~GADGET', [I1, I2]],
    ['name~100%25', [I3]],
    ['name:100%25', [I3]],
    ['name:_', [I2]],
    ['name=delta', [I4]],
    ['description≠first', [I2, I3, I4]],
    ['name∉Widget', [I2, I3, I4]],
    ['name∉widget', [I1, I2, I3, I4]],
    ['name^Alpha', [I1]],
    ['name^alpha', []],
    ['name∈delta%2CAlpha Widget', [I1, I4]],
    [`id=${I2}`, [I2]],
    [`id∈${I2}%2C${I3}`, [I2, I3]],
    [`id≠${I2}`, [I1, I3, I4]],
    ['count>1', [I2, I3]],
    ['count>=2', [I2, I3]],
    ['count<2', [I1]],
    ['count≤2', [I1, I2]],
    ['count≠1', [I2, I3, I4]],
    ['count∈1%2C3', [I1, I3]],
    ['count=NULL', [I4]],
    ['count=!NULL', [I1, I2, I3]],
    ['big=9007199254740993', [I1]],
    ['big=9007199254740992', []],
    ['price>2', [I2]],
    ['price=1.5', [I1]],
    ['active=true', [I1, I3, I4]],
    ['active:false', [I2]],
    ['createdAt>=2026-02-01T00:00:00Z', [I2, I3, I4]],
    [`createdAt<${Date.parse('2026-02-01T00:00:00Z')}`, [I1]],
    [`createdAt=${Date.parse('2026-04-01T12:30:00.250Z')}`, [I4]],
    ['createdAt=2026-04-01T18:00:00.250%2B05:30', [I4]],
    ['modifiedAt=NULL', [I2, I3, I4]],
    ['modifiedAt>2026-01-01', [I1]],
    ['day=2026-01-01', [I1]],
    ['day<2026-02-01', [I1]],
    ['status=LIVE', [I1, I3]],
    ['status≠LIVE', [I2, I4]],
    ['status∈LIVE%2CDRAFT', [I1, I2, I3]],
    ['tags:red', [I1, I2]],
    ['tags=red', [I2]],
    ['tags=blue%2Cred', [I1]],
    ['tags∉red', [I3, I4]],
    ['tags∈blue%2Cgreen', [I1]],
    ['tags=NULL', [I3, I4]],
    ['tags=!NULL', [I1, I2]],
    [`folderPath:${R}`, [I1, I2]],
    [`folderPath:${G}`, [I2]],
    [`folderId=${C}`, [I1]],
    ['folder=NULL', [I4]],
    ['folder=!NULL', [I1, I2, I3]],
    ['folder.name=Child', [I1]],
    ['folder.parent.name=Root', [I1]],
    ['folder.parent=NULL', [I3]],
    ['folder.parent.parent.name:Root', [I2]],
    ['folder.parent.parent.name:root', []],
    ['folder.parent.parent.name~root', [I2]],
    [`teamAssignments.team.id=${T2}`, [I1, I2]],
    ['teamAssignments.team.name:one', [I1]],
    ['teamAssignments=NULL', [I3, I4]],
    ['teamAssignments=!NULL', [I1, I2]],
    ['name:Widget|name:gadget,active=true', [I1]],
    ['name:Widget|(name:gadget,active=false)', [I1, I2]],
    ['(status=LIVE|status=NULL),count≠3', [I1, I4]],
  ])('%s', async (search, expected) => {
    expect(await ids(search)).toEqual(expected);
  });

  it.each([
    ['parentId=NULL', [R, O]],
    [`parentId=${R}`, [C]],
    ['parent.name=Root', [C]],
    ['parent.parent.name=Root', [G]],
    ['items=NULL', [R]],
    ['items=!NULL', [C, G, O]],
    ['items.name:gadget', [G]],
  ])('folder %s', async (search, expected) => {
    expect(await ids(search, folderResource)).toEqual(expected);
  });

  it('rejects a bad value before touching the database', async () => {
    await expect(ids('id=nope')).rejects.toMatchObject({ status: 400, key: 'search.error.invalidValue' });
    await expect(ids('count=99999999999999999999')).rejects.toBeInstanceOf(ValidationError);
    await expect(ids('name:a\u0000b')).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('select on real data', () => {
  it('returns default fields in wire formats and omits nulls', async () => {
    const page = await findPage(db, { resource: itemResource, sort: ['id'] });
    expect(page.content[0]).toEqual({
      id: I1,
      name: 'Alpha Widget',
      description: 'first',
      count: 1,
      // eslint-disable-next-line no-loss-of-precision -- on purpose: a JSON integer beyond 2^53 must round-trip as the database stored it
      big: 9007199254740993,
      price: 1.5,
      active: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      modifiedAt: Date.parse('2026-01-02T00:00:00Z'),
      day: '2026-01-01',
      status: 'LIVE',
      tags: ['red', 'blue'],
      folderPath: `${R}/${C}`,
      meta: { a: 1 },
      folderId: C,
    });
    expect(page.content[3]).toEqual({ id: I4, name: 'delta', active: true, createdAt: '2026-04-01T12:30:00.250Z' });
  });

  it('projects named fields, select-only fields and to-one relations', async () => {
    const page = await findPage(db, {
      resource: itemResource,
      select: 'name,description,secret,nameLength,folder(name,parentId)',
      sort: ['id'],
    });
    expect(page.content).toEqual([
      { id: I1, name: 'Alpha Widget', description: 'first', secret: 's1', nameLength: 12, folder: { id: C, name: 'Child', parentId: R } },
      { id: I2, name: 'beta_gadget', description: null, secret: null, nameLength: 11, folder: { id: G, name: 'Grandchild', parentId: C } },
      { id: I3, name: 'Gamma 100%', description: null, secret: null, nameLength: 10, folder: { id: O, name: 'Other', parentId: null } },
      { id: I4, name: 'delta', description: null, secret: null, nameLength: 5, folder: null },
    ]);
  });

  it('rejects selecting a collection and a third level', async () => {
    await expect(findPage(db, { resource: folderResource, select: 'items' })).rejects.toMatchObject({ key: 'select.error.unknownField' });
    await expect(findPage(db, { resource: itemResource, select: 'folder(parent)' })).rejects.toMatchObject({ key: 'select.error.tooDeep' });
  });

  it('converts values inside a relation object', async () => {
    const page = await findPage(db, { resource: folderResource, select: 'parent(name)', search: `id=${C}` });
    expect(page.content).toEqual([{ id: C, parent: { id: R, name: 'Root' } }]);
  });

  it('converts timestamps, dates and bigints inside a relation object (json_build_object)', async () => {
    const page = await findPage(db, {
      resource: teamAssignmentResource,
      select: 'teamId,item(createdAt,modifiedAt,day,big,meta,tags)',
      search: `teamId=${T1}`,
    });
    expect(page.content).toEqual([
      {
        teamId: T1,
        item: {
          id: I1,
          createdAt: '2026-01-01T00:00:00.000Z',
          modifiedAt: Date.parse('2026-01-02T00:00:00Z'),
          day: '2026-01-01',
          // eslint-disable-next-line no-loss-of-precision -- on purpose: a JSON integer beyond 2^53 must round-trip as the database stored it
          big: 9007199254740993,
          meta: { a: 1 },
          tags: ['red', 'blue'],
        },
      },
    ]);
  });

  it('findOne uses the same projection', async () => {
    expect(await findOne(db, { resource: itemResource, where: [eq(items.id, I2)], select: 'name,folder(name)' })).toEqual({
      id: I2,
      name: 'beta_gadget',
      folder: { id: G, name: 'Grandchild' },
    });
    expect(await findOne(db, { resource: itemResource, where: [eq(items.id, id(9))] })).toBeUndefined();
  });
});

describe('sort on real data', () => {
  const order = async (sort: string[]) => (await findPage(db, { resource: itemResource, select: 'id', sort })).content.map((row) => row.id);

  it('breaks ties by id', async () => {
    expect(await order(['active,desc'])).toEqual([I1, I3, I4, I2]);
    expect(await order(['status,asc'])).toEqual([I2, I1, I3, I4]);
  });

  it('sorts by a relation field and by several keys', async () => {
    expect(await order(['folder.name,asc'])).toEqual([I1, I2, I3, I4]);
    expect(await order(['folder.parent.name,desc', 'name,desc'])).toEqual([I4, I3, I1, I2]); // nulls first when descending
    expect(await order(['count,desc'])).toEqual([I4, I3, I2, I1]);
  });
});

describe('paging on real data', () => {
  it('builds the envelope', async () => {
    const first = await findPage(db, { resource: itemResource, select: 'id', size: '3', sort: ['name,asc'] });
    expect({ ...first, content: first.content.length }).toEqual({
      content: 3,
      first: true,
      last: false,
      number: 0,
      numberOfElements: 3,
      size: 3,
      totalElements: 4,
      totalPages: 2,
      sort: 'name,asc',
    });
    const second = await findPage(db, { resource: itemResource, select: 'id', size: 3, page: 1 });
    expect(second).toMatchObject({ first: false, last: true, number: 1, numberOfElements: 1, totalElements: 4, totalPages: 2 });
    expect(second.sort).toBeUndefined();
  });

  it('fills totalElements for an empty page beyond the end', async () => {
    const page = await findPage(db, { resource: itemResource, page: '7', size: '2', search: 'active=true' });
    expect(page).toMatchObject({ content: [], first: false, last: true, number: 7, numberOfElements: 0, totalElements: 3, totalPages: 2 });
  });

  it('counts with size=1&select=id', async () => {
    const page = await findPage(db, { resource: itemResource, size: 1, select: 'id', search: 'tags:red' });
    expect(page.content).toHaveLength(1);
    expect(page.totalElements).toBe(2);
    expect(await countMatching(db, { resource: itemResource, search: 'tags:red' })).toBe(2);
  });

  it('ANDs caller conditions with the search', async () => {
    const page = await findPage(db, {
      resource: itemResource,
      where: [sql`${items.active} = true`],
      extraWhere: sql`${items.count} is not null`,
      search: 'status=LIVE',
      select: 'id',
    });
    expect(page.content).toEqual([{ id: I1 }, { id: I3 }]);
  });

  it('rejects sizes above the resource cap', async () => {
    await expect(findPage(db, { resource: itemResource, size: 51 })).rejects.toMatchObject({ key: 'paging.error.invalid' });
    expect((await findPage(db, { resource: folderResource, size: 1000 })).size).toBe(1000);
  });

  it('returns an empty first page', async () => {
    const page = await findPage(db, { resource: itemResource, search: 'name=nothing' });
    expect(page).toMatchObject({ content: [], first: true, last: true, totalElements: 0, totalPages: 0 });
  });
});

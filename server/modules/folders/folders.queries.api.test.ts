import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { contentFolderItems } from '@/server/modules/content';
import { deviceContents } from '@/server/modules/content/content.table';
import { deviceFolderItems } from '@/server/modules/device-groups/device-groups.queries';
import { devices } from '@/server/modules/devices/devices.table';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { defineFolderItems, type FolderItems, type FolderTable } from './folder-tree';
import {
  checkFolderBatch,
  checkItemBatch,
  deleteItemsBelow,
  findFolderRow,
  findItemBelow,
  findRootFolder,
  insertFolderRow,
  itemIdsBelow,
  lockFolderSubtree,
  moveItemsInto,
  moveItemsOutOf,
  newFolderIn,
  updateFolderRow,
} from './folders.queries';
import { contentGroups, deviceGroups } from './folders.table';

/*
 * The folder row queries content and device folders share (folders.queries.ts), on both trees: every one keeps to
 * its customer (another tenant's ids are not found, changed, checked or moved) and the subtree ones to the subtree.
 */

type Place = { id: string; customerId: number; path: string[] };

let t: TestContext;
let a: number;
let b: number;

beforeAll(async () => {
  t = await createTestContext();
  a = (await t.factories.customer()).id;
  b = (await t.factories.customer()).id;
});
afterAll(async () => t?.close());

type Tree = {
  name: string;
  table: FolderTable;
  items: FolderItems;
  insertItem: (db: Executor, folder: Place) => Promise<string>;
  placeOf: (id: string) => Promise<{ folderId: string | null; path: string[] } | undefined>;
};

const trees: Tree[] = [
  {
    name: 'content folders',
    table: contentGroups,
    items: contentFolderItems,
    insertItem: async (db: Executor, folder: Place) => {
      const id = uuidv7();
      await db.insert(deviceContents).values({
        id,
        customerId: folder.customerId,
        deviceContentType: 'simpleLoop',
        simpleLoopType: 'NORMAL',
        version: '2.0',
        contentGroupId: folder.id,
        groupPath: folder.path,
        name: 'Item',
        data: { loopData: {}, slides: [] },
      });

      return id;
    },
    placeOf: async (id: string) => {
      const [row] = await t.db
        .select({ folderId: deviceContents.contentGroupId, path: deviceContents.groupPath })
        .from(deviceContents)
        .where(eq(deviceContents.id, id));

      return row;
    },
  },
  {
    name: 'device folders',
    table: deviceGroups,
    items: deviceFolderItems,
    insertItem: async (db: Executor, folder: Place) => {
      const id = uuidv7();
      await db
        .insert(devices)
        .values({ id, customerId: folder.customerId, deviceGroupId: folder.id, groupPath: folder.path, secretHash: uuidv7() });

      return id;
    },
    placeOf: async (id: string) => {
      const [row] = await t.db.select({ folderId: devices.deviceGroupId, path: devices.groupPath }).from(devices).where(eq(devices.id, id));

      return row;
    },
  },
];

describe.each(trees)('$name', ({ table, items, insertItem, placeOf }) => {
  const rootOf = async (customerId: number) => (await findRootFolder(t.db, table, customerId))!;
  const folderIn = (parent: Place, name: string) => insertFolderRow(t.db, table, { ...newFolderIn(parent), name });

  it("finds each tenant's own root and inserts below it", async () => {
    const [rootA, rootB] = [await rootOf(a), await rootOf(b)];
    expect(rootA).toMatchObject({ customerId: a, parentId: null, path: [rootA.id] });
    expect(rootB.customerId).toBe(b);
    const child = await folderIn(rootA, 'Child');
    expect(child).toMatchObject({ customerId: a, parentId: rootA.id, path: [rootA.id, child.id], name: 'Child' });
  });

  it("reads, updates and checks a folder only in its own tenant's scope", async () => {
    const folder = await folderIn(await rootOf(a), 'Mine');
    expect(await findFolderRow(t.db, table, folder.id, a)).toMatchObject({ id: folder.id });
    expect(await findFolderRow(t.db, table, folder.id, customerScope(a))).toMatchObject({ id: folder.id });
    expect(await findFolderRow(t.db, table, folder.id, b)).toBeUndefined();
    expect(await findFolderRow(t.db, table, folder.id, customerScope(b))).toBeUndefined();
    expect(await findFolderRow(t.db, table, folder.id, a, sql`false`)).toBeUndefined();

    await updateFolderRow(t.db, table, b, folder.id, { name: 'Taken' });
    expect((await findFolderRow(t.db, table, folder.id, a))!.name).toBe('Mine');
    await updateFolderRow(t.db, table, a, folder.id, { name: 'Renamed' });
    expect((await findFolderRow(t.db, table, folder.id, a))!.name).toBe('Renamed');

    const batch = { ids: [folder.id], visible: undefined, readOnly: sql`false` };
    expect(await checkFolderBatch(t.db, table, { ...batch, customerId: b }, {})).toEqual([]);
    expect(await checkFolderBatch(t.db, table, { ...batch, customerId: a }, {})).toEqual([
      { ...folder, name: 'Renamed', visible: true, readOnly: false },
    ]);
  });

  it('moves items into a folder and out of a subtree, within the tenant only', async () => {
    const rootA = await rootOf(a);
    const top = await folderIn(rootA, 'Top');
    const below = await folderIn(top, 'Below');
    const beside = await folderIn(rootA, 'Beside');
    const mine = await insertItem(t.db, rootA);
    const theirs = await insertItem(t.db, await rootOf(b));

    await moveItemsInto(t.db, items, { customerId: a, ids: [mine, theirs], target: below });
    expect(await placeOf(mine)).toEqual({ folderId: below.id, path: below.path });
    expect((await placeOf(theirs))!.folderId).not.toBe(below.id);
    const besideItem = await insertItem(t.db, beside);

    expect(await checkItemBatch(t.db, items, { customerId: b, ids: [mine], visible: undefined, readOnly: sql`true` }, {})).toEqual([]);
    expect(await checkItemBatch(t.db, items, { customerId: a, ids: [mine], visible: sql`false`, readOnly: sql`true` }, {})).toEqual([
      { id: mine, visible: false, readOnly: true },
    ]);
    expect(await findItemBelow(t.db, items, { customerId: a, folderIds: [top.id], blocked: sql`true` }, {})).toEqual({ id: mine });
    expect(await findItemBelow(t.db, items, { customerId: b, folderIds: [top.id], blocked: sql`true` }, {})).toBeUndefined();
    expect(await execRows(t.db, itemIdsBelow(items, a, [top.id]))).toEqual([{ id: mine }]);

    expect(await moveItemsOutOf(t.db, items, { customerId: b, folderId: top.id, target: rootA })).toBe(0);
    expect(await moveItemsOutOf(t.db, items, { customerId: a, folderId: top.id, target: rootA })).toBe(1);
    expect(await placeOf(mine)).toEqual({ folderId: rootA.id, path: rootA.path });
    expect(await placeOf(besideItem)).toEqual({ folderId: beside.id, path: beside.path });
  });

  it('locks the folders of the subtree, and no others, until the transaction ends', async () => {
    const rootA = await rootOf(a);
    const top = await folderIn(rootA, 'Locked');
    const below = await folderIn(top, 'Locked too');
    const beside = await folderIn(rootA, 'Free');
    const otherTenant = await folderIn(await rootOf(b), 'Theirs');
    // A row locked FOR UPDATE carries the locking transaction's id in xmax.
    const lockedIds = (db: Executor) =>
      execRows(
        db,
        sql`select ${table.id} as id from ${table} where ${inArray(table.id, [top.id, below.id, beside.id, otherTenant.id])} and xmax::text::bigint = txid_current() % 4294967296`,
      );
    await t.db.transaction(async (tx) => {
      await lockFolderSubtree(tx, table, a, top.id);
      expect((await lockedIds(tx)).map((r) => r.id).sort()).toEqual([top.id, below.id].sort());
    });
    await t.db.transaction(async (tx) => {
      await lockFolderSubtree(tx, table, b, top.id);
      expect(await lockedIds(tx)).toEqual([]);
    });
  });

  it('deletes the items below a subtree with their team assignments, nothing else', async () => {
    const rootA = await rootOf(a);
    const top = await folderIn(rootA, 'Doomed');
    const inside = await insertItem(t.db, await folderIn(top, 'Doomed too'));
    const outside = await insertItem(t.db, rootA);
    const [team] = await t.db
      .insert(teams)
      .values({ id: uuidv7(), customerId: a, name: `Team ${uuidv7()}` })
      .returning();
    const assigned = (id: string) => ({ teamId: team!.id, customerId: a, resourceType: items.type, resourceId: id, readOnly: false });
    await t.db.insert(teamAssignments).values([assigned(inside), assigned(outside)]);

    expect(await deleteItemsBelow(t.db, items, { customerId: b, folderIds: [top.id] })).toBe(0);
    expect(await deleteItemsBelow(t.db, items, { customerId: a, folderIds: [top.id] })).toBe(1);
    expect(await placeOf(inside)).toBeUndefined();
    expect(await placeOf(outside)).toBeDefined();
    const left = await t.db
      .select({ id: teamAssignments.resourceId })
      .from(teamAssignments)
      .where(and(eq(teamAssignments.teamId, team!.id), eq(teamAssignments.resourceType, items.type)));
    expect(left).toEqual([{ id: outside }]);
  });
});

it("types the queries by the tree's table: a column the tree does not have does not compile", async () => {
  const rootA = (await findRootFolder(t.db, contentGroups, a))!;
  const folder = await insertFolderRow(t.db, contentGroups, { ...newFolderIn(rootA), name: 'Typed', isTemplateGroup: false });
  const [checked] = await checkFolderBatch(
    t.db,
    contentGroups,
    { customerId: a, ids: [folder.id], visible: undefined, readOnly: sql`false` },
    { isTemplateGroup: contentGroups.isTemplateGroup },
  );
  expect(checked).toMatchObject({ id: folder.id, isTemplateGroup: false });
  const none = { customerId: a, ids: [], visible: undefined, readOnly: sql`false` };
  const deviceFolderColumns = { tags: deviceGroups.tags };
  const deviceColumns = { name: devices.name };
  const { id: _, ...devicePlace } = deviceFolderItems;
  // Never run: each line below must fail to compile (`npm run typecheck` fails on an unused @ts-expect-error).
  const refused = async () => {
    // @ts-expect-error content folders have no tags
    await updateFolderRow(t.db, contentGroups, a, folder.id, { tags: ['x'] });
    // @ts-expect-error content folders have no type
    await insertFolderRow(t.db, contentGroups, { ...newFolderIn(rootA), name: 'Typed', type: 'VIDEO_WALL' });
    // @ts-expect-error a device folder column is not a content folder's
    await checkFolderBatch(t.db, contentGroups, none, deviceFolderColumns);
    // @ts-expect-error a device's column is not content's
    await checkItemBatch(t.db, contentFolderItems, none, deviceColumns);
    // @ts-expect-error the items' columns are their table's
    defineFolderItems({ ...devicePlace, id: deviceContents.id });
  };
  expect(typeof refused).toBe('function');
  await updateFolderRow(t.db, deviceGroups, a, (await findRootFolder(t.db, deviceGroups, a))!.id, { tags: [] });
});

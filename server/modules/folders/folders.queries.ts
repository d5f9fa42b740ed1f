import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray, uuidEquals } from '@/server/db/sql';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { inSubtrees, type ColumnOf, type FolderItems, type FolderTable } from './folder-tree';
import { contentGroups, deviceGroups, fileFolders } from './folders.table';

/*
 * The row queries of the three folder trees, once. Each takes the tree's folder table (or its items, see
 * `defineFolderItems`) and is typed by it: values and extra columns a tree does not have do not compile. The
 * modules that manage a tree call them with their table (content-groups, device-groups, file-folders; the
 * content module for the content tree's access); the tree verbs beyond one statement are folder-tree.ts's.
 */

/** A folder item goes into: its id and path. */
type Target = { id: string; path: readonly string[] };

/** One batch of ids to check: in `customerId`, with the caller's visibility and read-only conditions. */
type Batch = { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL };

/** The columns every folder row has, as the helpers below answer them. */
const base = (t: FolderTable) => ({ id: t.id, customerId: t.customerId, parentId: t.parentId, path: t.path, name: t.name });

// --- folder rows ------------------------------------------------------------------------------------

/** The place of a new folder below `parent`: a fresh id, the parent's customer, the path down to it. */
export function newFolderIn(parent: { id: string; customerId: number; path: readonly string[] }) {
  const id = uuidv7();

  return { id, customerId: parent.customerId, parentId: parent.id, path: [...parent.path, id] };
}

export async function insertFolderRow<T extends FolderTable>(db: Executor, table: T, values: PgInsertValue<T>) {
  const t: FolderTable = table;
  const [row] = await db.insert(table).values(values).returning(base(t));

  return row!;
}

/** Sets `values` on the folder `id` of `customerId` (rename, tags, settings). */
export async function updateFolderRow<T extends FolderTable>(
  db: Executor,
  table: T,
  customerId: number,
  id: string,
  values: PgUpdateSetSource<T>,
): Promise<void> {
  await db
    .update(table)
    .set(values)
    .where(and(eq(table.id, id), eq(table.customerId, customerId)));
}

/** The tenant's root folder of the tree (created with the customer). */
export async function findRootFolder(db: Executor, table: FolderTable, customerId: number) {
  const [row] = await db
    .select(base(table))
    .from(table)
    .where(and(eq(table.customerId, customerId), isNull(table.parentId)))
    .limit(1);

  return row;
}

/** The folder `id` of `tenant` (a customer, or a scope) where `visible` holds. */
export async function findFolderRow(db: Executor, table: FolderTable, id: string, tenant: number | TenantScope, visible?: SQL) {
  const inTenant = typeof tenant === 'number' ? eq(table.customerId, tenant) : scopeCondition(tenant, table.customerId);
  const [row] = await db
    .select(base(table))
    .from(table)
    .where(and(uuidEquals(table.id, id), inTenant, visible))
    .limit(1);

  return row;
}

/**
 * For each id of a batch of folders: whether it is in the customer, visible and read-only for the caller, with
 * its place in the tree and the tree's own `columns` (`isTemplateGroup`). One statement.
 */
export async function checkFolderBatch<T extends FolderTable, C extends Record<string, ColumnOf<T>>>(
  db: Executor,
  table: T,
  input: Batch,
  columns: C,
) {
  if (input.ids.length === 0) return [];
  const t: FolderTable = table;

  return db
    .select({ ...columns, ...base(t), visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(t)
    .where(and(inArray(t.id, [...input.ids]), eq(t.customerId, input.customerId)));
}

/**
 * Locks folder `folderId` and every folder below it until the transaction ends: an item put into one of them
 * meanwhile (its foreign key takes a share lock on the folder) waits, so a delete never finds an item it has not
 * moved out.
 */
export async function lockFolderSubtree(db: Executor, table: FolderTable, customerId: number, folderId: string): Promise<void> {
  await db.execute(
    sql`select 1 from ${table} where ${table.customerId} = ${customerId} and ${inSubtrees(table.path, [folderId])} for update`,
  );
}

// --- the items in a tree ------------------------------------------------------------------------------

/** For each id of a batch of items: whether it is in the customer, visible and read-only for the caller, with the items' `columns` (`locked`). */
export async function checkItemBatch<I extends PgTable, C extends Record<string, ColumnOf<I>>>(
  db: Executor,
  items: FolderItems<I>,
  input: Batch,
  columns: C,
) {
  if (input.ids.length === 0) return [];
  const from: PgTable = items.table;

  return db
    .select({ ...columns, id: items.id, visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(from)
    .where(and(inArray(items.id, [...input.ids]), eq(items.customerId, input.customerId)));
}

/** The first item in or below `folderIds` for which `blocked` holds (locked, invisible or read-only for the caller), with the items' `columns`. */
export async function findItemBelow<I extends PgTable, C extends Record<string, ColumnOf<I>>>(
  db: Executor,
  items: FolderItems<I>,
  input: { customerId: number; folderIds: readonly string[]; blocked: SQL },
  columns: C,
) {
  const from: PgTable = items.table;
  const [row] = await db
    .select({ ...columns, id: items.id })
    .from(from)
    .where(and(eq(items.customerId, input.customerId), inSubtrees(items.path, input.folderIds), input.blocked))
    .limit(1);

  return row;
}

/** Puts the items `ids` directly into the folder `target`. */
export async function moveItemsInto(
  db: Executor,
  items: FolderItems,
  input: { customerId: number; ids: readonly string[]; target: Target },
): Promise<void> {
  if (input.ids.length === 0) return;
  await db.execute(sql`update ${items.table} set ${placeIn(items, input.target)}
    where ${items.customerId} = ${input.customerId} and ${inArray(items.id, [...input.ids])}`);
}

/** Puts every item in or below folder `folderId` directly into `target`; answers how many moved. One statement. */
export async function moveItemsOutOf(
  db: Executor,
  items: FolderItems,
  input: { customerId: number; folderId: string; target: Target },
): Promise<number> {
  const [row] = await execRows(
    db,
    sql`with m as (update ${items.table} set ${placeIn(items, input.target)}
      where ${items.customerId} = ${input.customerId} and ${inSubtrees(items.path, [input.folderId])} returning 1) select count(*)::int as n from m`,
  );

  return Number(row?.n ?? 0);
}

function placeIn(items: FolderItems, target: Target): SQL {
  return sql`${sql.identifier(items.folderId.name)} = ${target.id}::uuid, ${sql.identifier(items.path.name)} = ${uuidArray(target.path)}`;
}

/** The ids of the items in or below `folderIds`, as a subquery another statement carries. */
export function itemIdsBelow(items: FolderItems, customerId: number, folderIds: readonly string[]): SQL {
  return sql`select ${items.id} from ${items.table} where ${items.customerId} = ${customerId} and ${inSubtrees(items.path, folderIds)}`;
}

/**
 * Deletes every item in or below `folderIds` with its team assignments, in two statements; answers how many
 * went. What else refers to them has been cleared before.
 */
export async function deleteItemsBelow(db: Executor, items: FolderItems, input: { customerId: number; folderIds: readonly string[] }) {
  if (input.folderIds.length === 0) return 0;
  const below = sql`${items.customerId} = ${input.customerId} and ${inSubtrees(items.path, input.folderIds)}`;
  await db.execute(sql`delete from ${teamAssignments} where ${teamAssignments.customerId} = ${input.customerId} and ${teamAssignments.resourceType} = ${items.type}
    and ${teamAssignments.resourceId} in (select ${items.id}::text from ${items.table} where ${below})`);
  const [row] = await execRows(db, sql`with d as (delete from ${items.table} where ${below} returning 1) select count(*)::int as n from d`);

  return Number(row?.n ?? 0);
}

// --- every customer's folders -------------------------------------------------------------------------

/**
 * The folders every customer starts with: root device folder, root file folder, root content folder and
 * the Templates content folder below it (spec 3; the root is where content of a deleted folder goes).
 */
export async function insertInitialFolders(db: Executor, customerId: number) {
  const deviceRoot = uuidv7();
  const fileRoot = uuidv7();
  const contentRoot = uuidv7();
  const templates = uuidv7();
  await db.insert(deviceGroups).values({ id: deviceRoot, customerId, parentId: null, name: 'Root', path: [deviceRoot] });
  await db.insert(fileFolders).values({ id: fileRoot, customerId, parentId: null, name: 'Root', path: [fileRoot] });
  await db.insert(contentGroups).values([
    { id: contentRoot, customerId, parentId: null, name: 'Root', path: [contentRoot] },
    { id: templates, customerId, parentId: contentRoot, name: 'Templates', path: [contentRoot, templates], isTemplateGroup: true },
  ]);
}

/** The tenant's root file folder (created with the customer). */
export const findRootFileFolder = (db: Executor, customerId: number) => findRootFolder(db, fileFolders, customerId);

/** The tenant's root content folder (created with the customer). */
export const findRootContentGroup = (db: Executor, customerId: number) => findRootFolder(db, contentGroups, customerId);

/** The tenant's root device folder (created with the customer). */
export const findRootDeviceGroup = (db: Executor, customerId: number) => findRootFolder(db, deviceGroups, customerId);

/** The sweep factory of a tree (`sweep` of a module manifest): a new folder in the customer's root. */
export function folderSweep(table: FolderTable, label: string) {
  return async (db: Executor, customerId: number): Promise<string> => {
    const root = await findRootFolder(db, table, customerId);
    if (!root) throw new Error(`customer ${customerId} has no root ${label}`);
    const place = newFolderIn(root);

    return (await insertFolderRow(db, table, { ...place, name: `sweep ${place.id}` })).id;
  };
}

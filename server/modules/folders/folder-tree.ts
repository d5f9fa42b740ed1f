import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { teamMemberOf, type Actor } from '@/server/context/actor';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { execRows, uuidArray, uuidEquals } from '@/server/db/sql';
import { ConflictError, ForbiddenError, NotFoundError } from '@/server/errors';
import { customers } from '@/server/tenant/customers.table';
import { isAboveTeams, readOnlyExpression, teamAccessCondition, teamListQuery, type TeamReadInput } from '@/server/modules/teams';
import { teamAssignments } from '@/server/modules/teams/teams.table';

/*
 * What the three folder trees (file folders, content folders, device folders) share. Each keeps a
 * materialised path (`path`: the ids root → folder, the folder itself last) and its items copy their
 * folder's path (`file.folder_path`, `device_content.group_path`, `device.group_path`), so a subtree is one
 * GIN-indexed `path @> array[id]` predicate. Here, once: who sees and writes a folder, the move guard, the
 * subtree move (folders and items, set-based), the team check over a subtree and the subtree delete.
 * A module describes its tree once with `defineFolderTree` and keeps only its own rules.
 */

export type FolderType = 'fileFolder' | 'contentGroup' | 'deviceGroup';

/** A folder table: the columns every tree has, typed (a query over them answers `string`, `string[]`, …). */
export type FolderTable = PgTable & {
  id: AnyPgColumn<{ data: string; notNull: true }>;
  customerId: AnyPgColumn<{ data: number; notNull: true }>;
  parentId: AnyPgColumn<{ data: string }>;
  path: AnyPgColumn<{ data: string[]; notNull: true }>;
  name: AnyPgColumn<{ data: string; notNull: true }>;
};

/** A column of table `I` (one of another table does not type-check), holding `D`; `notNull` when `N`. */
export type ColumnOf<I extends PgTable, D = unknown, N extends boolean = boolean> = AnyPgColumn<{
  tableName: I['_']['name'];
  data: D;
  notNull: N;
}>;

/**
 * The rows that lie in the folders of a tree (files, content, devices): their team resource type (their team
 * assignments go with them), the column naming their folder, and their copy of its path (`folder_path`,
 * `group_path`), which makes "in or below a folder" one GIN-indexed predicate. Every column is `table`'s.
 */
export type FolderItems<I extends PgTable = PgTable> = {
  table: I;
  type: 'file' | 'deviceContent' | 'device';
  id: ColumnOf<I, string, true>;
  customerId: ColumnOf<I, number>;
  folderId: ColumnOf<I, string>;
  path: ColumnOf<I, string[]>;
};

/** The items of a tree, checked against their table. */
export function defineFolderItems<I extends PgTable>(items: FolderItems<I>): FolderItems<I> {
  return items;
}

export type FolderTree<T extends FolderTable = FolderTable> = {
  /** The team resource type, and the prefix of the tree's error keys (`deviceGroup.error.root`). */
  type: FolderType;
  /** How messages name one folder of the tree (`content folder`). */
  label: string;
  table: T;
  items: readonly FolderItems[];
  /** The customer setting that lets team users create in the root (`is…CreationEnabledInRootForTeamUsers`). */
  rootCreationSetting: AnyPgColumn;
  /** Columns set on a folder that is moved (not on its descendants): file folders stamp `last_change`. */
  onMove?: readonly { column: AnyPgColumn; value: SQL }[];
  /** The unique index on `(parent_id, lower(name))` of a tree whose sibling names are unique (content, file folders). */
  siblingNameKey?: string;
};

export function defineFolderTree<T extends FolderTable>(tree: FolderTree<T>): FolderTree<T> {
  return tree;
}

/** The columns every folder row has, for the helpers' own use. */
type FolderBase = { id: string; customerId: number; parentId: string | null; path: string[]; name: string };

type Caller = { actor: Actor };

/** What a write lookup learns about the caller and a folder, beside the row (one key no table column uses). */
const ACCESS = '__folderAccess';
type Access = { visible: boolean; readOnly: boolean; rootAllowed: boolean };

/**
 * The root is visible to everyone who sees the tenant; other folders follow team access (rule A of
 * team-visibility). `folder` is the tree's table, or an alias of it.
 */
export function folderAccessCondition(
  ctx: Caller,
  folder: { id: AnyPgColumn | SQL; parentId: AnyPgColumn | SQL },
  type: FolderType,
): SQL | undefined {
  const access = teamAccessCondition(ctx, type, folder.id);

  return access ? sql`(${folder.parentId} is null or ${access})` : undefined;
}

/** The caller belongs to a team (or is restricted): the "team user" of the root-creation settings. */
function isTeamUserExpression(actor: Actor): SQL {
  const member = teamMemberOf(actor);
  if (!member) return sql`false`;
  if (member.restricted) return sql`true`;

  return sql`exists (select 1 from ${teamAssignments} where ${teamAssignments.resourceType} = ${member.type} and ${teamAssignments.resourceId} = ${member.id})`;
}

/** The team part of a folder list (`teamListQuery`), the root listed for everyone who sees the tenant whatever the team filter. */
export function folderListQuery<I extends TeamReadInput>(ctx: Caller, tree: FolderTree, input: I) {
  const { where, extraColumns, query } = teamListQuery(ctx, tree.type, tree.table.id, input);

  return { where: where ? sql`(${tree.table.parentId} is null or ${where})` : undefined, extraColumns, query };
}

/** `column` (a folder's path or an item's copy of it) lies in or below one of `folderIds`. */
export function inSubtrees(column: AnyPgColumn, folderIds: readonly string[]): SQL {
  return folderIds.length === 1 ? sql`${column} @> ${uuidArray(folderIds)}` : sql`${column} && ${uuidArray(folderIds)}`;
}

/**
 * A folder the caller writes into or changes, whole row: 404 when it is not in the scope or invisible
 * (never revealing it), 403 `team.error.readOnly` when the caller's teams give read-only access, 403
 * `<type>.error.rootCreationDisabled` for a team user creating in the root (`creatingIn`) when the
 * customer's setting is off. Without `id`: the root of `customerId`. With both: `id` within that customer.
 */
export async function findWritableFolder<T extends FolderTable>(
  db: Executor,
  ctx: Caller & { scope: TenantScope },
  tree: FolderTree<T>,
  input: { id?: string; customerId?: number; creatingIn: boolean },
): Promise<T['$inferSelect']> {
  const t = tree.table as FolderTable;
  const where = input.id
    ? and(
        uuidEquals(t.id, input.id),
        input.customerId === undefined ? scopeCondition(ctx.scope, t.customerId) : eq(t.customerId, input.customerId),
      )
    : and(eq(t.customerId, input.customerId ?? -1), sql`${t.parentId} is null`);
  const [found] = await db
    .select({
      ...getTableColumns(t),
      [ACCESS]: sql<Access>`json_build_object(
        'visible', coalesce(${folderAccessCondition(ctx, t, tree.type) ?? sql`true`}, false),
        'readOnly', ${readOnlyExpression(ctx, tree.type, t.id)},
        'rootAllowed', (not ${isTeamUserExpression(ctx.actor)} or coalesce((select ${tree.rootCreationSetting} from ${customers} where ${customers.id} = ${t.customerId}), true)))`,
    })
    .from(t)
    .where(where)
    .limit(1);
  const { [ACCESS]: access, ...row } = (found ?? {}) as FolderBase & { [ACCESS]?: Access };
  if (!access?.visible) throw new NotFoundError(tree.type, input.id ?? 'root');
  if (access.readOnly)
    throw new ForbiddenError(`Your teams give read-only access to this ${tree.label}`, 'team.error.readOnly', {
      resourceType: tree.type,
      id: row.id,
    });
  if (input.creatingIn && row.parentId === null && !access.rootAllowed) {
    throw new ForbiddenError(
      `Team users may not create items or folders in the root ${tree.label} of this customer`,
      `${tree.type}.error.rootCreationDisabled`,
      { id: row.id },
    );
  }

  return row as T['$inferSelect'];
}

/**
 * Runs `work` (a create, rename or move in a tree with unique sibling names), answering 409
 * `<type>.error.duplicateName` when the tree's unique index refuses it: the index decides, so races answer 409 too.
 */
export async function uniqueSiblingName<T>(tree: FolderTree, name: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (tree.siblingNameKey && isUniqueViolation(err, tree.siblingNameKey)) {
      throw new ConflictError(
        `${tree.type}.error.duplicateName`,
        name
          ? `A ${tree.label} named '${name}' already exists here`
          : `A ${tree.label} with the same name already exists in the target folder`,
        name ? { name } : undefined,
      );
    }
    throw err;
  }
}

/** Refuses moving a folder into itself or below it (409 `<type>.error.moveIntoItself`). */
function assertNotIntoItself(tree: FolderTree, folderIds: readonly string[], target: { id: string; path: readonly string[] }): void {
  const intoItself = folderIds.find((id) => target.path.includes(id));
  if (intoItself) {
    throw new ConflictError(`${tree.type}.error.moveIntoItself`, 'A folder cannot be moved into itself or one of its sub-folders', {
      id: intoItself,
      targetId: target.id,
    });
  }
}

/**
 * Moves the folders `folderIds` (with everything below them) under `target`, after the move guard. Each
 * folder is one UPDATE of the folders and one per item kind, whatever the size of its subtree: every
 * row in or below it gets `target.path || path[position of the folder:]`, read from the row itself, so
 * a folder already moved along with an ancestor earlier in the same batch needs no re-read.
 * Moves within one customer's tree take turns on its root row, and the guard reads the target's path once
 * its turn has come: two crossing moves (A into B, B into A) would otherwise both pass it and make a cycle.
 */
export async function moveFolderSubtrees(
  db: Executor,
  tree: FolderTree,
  input: { customerId: number; folderIds: readonly string[]; target: { id: string } },
): Promise<void> {
  const t: FolderTable = tree.table;
  await db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.customerId, input.customerId), isNull(t.parentId)))
    .for('update');
  const [current] = await db
    .select({ path: t.path })
    .from(t)
    .where(and(eq(t.customerId, input.customerId), eq(t.id, input.target.id)));
  if (!current) throw new NotFoundError(tree.type, input.target.id);
  const target = { id: input.target.id, path: current.path };
  assertNotIntoItself(tree, input.folderIds, target);
  const targetPath = uuidArray(target.path);
  const rewrite = (column: AnyPgColumn, folderId: string) =>
    sql`${sql.identifier(column.name)} = ${targetPath} || ${column}[array_position(${column}, ${folderId}::uuid):cardinality(${column})]`;
  for (const folderId of input.folderIds) {
    const moved = sql`${t.id} = ${folderId}::uuid`;
    const onMove = (tree.onMove ?? []).map(
      ({ column, value }) => sql`, ${sql.identifier(column.name)} = case when ${moved} then ${value} else ${column} end`,
    );
    await db.execute(sql`update ${t} set ${rewrite(t.path, folderId)},
        ${sql.identifier(t.parentId.name)} = case when ${moved} then ${target.id}::uuid else ${t.parentId} end${sql.join(onMove, sql``)}
      where ${t.customerId} = ${input.customerId} and ${inSubtrees(t.path, [folderId])}`);
    for (const item of tree.items) {
      await db.execute(
        sql`update ${item.table} set ${rewrite(item.path, folderId)} where ${item.customerId} = ${input.customerId} and ${inSubtrees(item.path, [folderId])}`,
      );
    }
  }
}

/**
 * The rows `checkFolderBatch`/`checkItemBatch` found for the `ids` of one kind of a batch: each must be there and
 * visible (404 otherwise, never revealing another tenant's ids) and writable for the caller's teams (403
 * `team.error.readOnly`).
 */
export function assertBatchWritable(
  kind: FolderType | FolderItems['type'],
  ids: readonly string[],
  rows: readonly { id: string; visible: boolean; readOnly: boolean }[],
): void {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const row = byId.get(id);
    if (!row?.visible) throw new NotFoundError(kind, id);
    if (row.readOnly)
      throw new ForbiddenError(`Your teams give read-only access to this ${kind}`, 'team.error.readOnly', { resourceType: kind, id });
  }
}

/** `visible` false or null, or `readOnly` true: a row the caller's teams may not change. */
export function blockedForTeams(visible: SQL | undefined, readOnly: SQL): SQL {
  return sql`(not coalesce(${visible ?? sql`true`}, false) or ${readOnly})`;
}

/**
 * A team user changes a whole subtree (deleting it) only when every folder in it is visible and
 * writable for its teams: 403 `team.error.readOnly` otherwise. One indexed query; nothing for OWNER/ADMIN.
 */
export async function assertSubtreeFoldersWritable(
  db: Executor,
  ctx: Caller,
  tree: FolderTree,
  input: { customerId: number; folderIds: readonly string[] },
): Promise<void> {
  if (isAboveTeams(ctx.actor) || input.folderIds.length === 0) return;
  const t = tree.table;
  const blocked = blockedForTeams(folderAccessCondition(ctx, t, tree.type), readOnlyExpression(ctx, tree.type, t.id));
  const [row] = await execRows(
    db,
    sql`select ${t.id} as id from ${t} where ${t.customerId} = ${input.customerId} and ${inSubtrees(t.path, input.folderIds)} and ${blocked} limit 1`,
  );
  if (row) {
    throw new ForbiddenError(`The ${tree.label} contains folders your teams may not change`, 'team.error.readOnly', {
      resourceType: tree.type,
      id: String(row.id),
    });
  }
}

/**
 * Deletes the folders `folderIds` and every folder below them with their team assignments, in two
 * statements; answers how many folders went. Items must have left (or been deleted) before.
 */
export async function deleteFolderSubtrees(
  db: Executor,
  tree: FolderTree,
  input: { customerId: number; folderIds: readonly string[] },
): Promise<number> {
  if (input.folderIds.length === 0) return 0;
  const t = tree.table;
  const below = sql`${t.customerId} = ${input.customerId} and ${inSubtrees(t.path, input.folderIds)}`;
  await db.execute(sql`delete from ${teamAssignments} where ${teamAssignments.customerId} = ${input.customerId} and ${teamAssignments.resourceType} = ${tree.type}
    and ${teamAssignments.resourceId} in (select ${t.id}::text from ${t} where ${below})`);
  const [row] = await execRows(db, sql`with d as (delete from ${t} where ${below} returning 1) select count(*)::int as n from d`);

  return Number(row?.n ?? 0);
}

import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * The one place that knows who references a file. Each module that points at files (content, playlists,
 * channels, sub-channels, ...) lists one `FileReferenceKind` in its manifest (`fileReferences`); the file
 * resource's usage fields, the delete guard and `replaceFileReference` all go through this point, so none
 * of them names a module.
 */

/** The select-only field of `file` a reference kind contributes its usage entries to. */
/**
 * Who changes references and files: a user's request, or the service itself (a FILE_FROM_URL datasource's refresh
 * replaces its file as the system). A user's `ServiceContext` is one.
 */
export type FileWriteContext = Pick<ServiceContext<Actor>, 'actor' | 'scope' | 'requestId'>;

export type FileUsageField = 'usageDetails' | 'campaignUsageDetails' | 'topLevelCampaignUsageDetails' | 'messageUsageDetails';

export type FileReferenceKind = {
  /** e.g. `content`, `simpleLoop`, `campaign`: names the kind in errors and audit entries. */
  name: string;
  usageField: FileUsageField;
  /**
   * A jsonb array of usage entries for the file whose id is the SQL `fileId` (correlated with the outer
   * row), e.g. `[{id, name, deviceContentType}]`. Must be `'[]'::jsonb` (not null) when unused.
   */
  usage: (fileId: SQL) => SQL;
  /**
   * How many references of this kind block deleting `fileIds`; `removeFromPlaylists` lets a playlist kind
   * answer 0 and clean up in `detach` instead. Omitted: never blocks.
   */
  countBlocking?: (tx: Executor, input: { fileIds: readonly string[]; removeFromPlaylists: boolean }) => Promise<number>;
  /** Removes references to files about to be deleted (after the block check passed). */
  detach?: (tx: Executor, ctx: FileWriteContext, input: { fileIds: readonly string[]; removeFromPlaylists: boolean }) => Promise<void>;
  /** Points every reference of `fromFileId` at `toFileId`; answers how many references changed. */
  replace: (tx: Executor, ctx: FileWriteContext, input: { fromFileId: string; toFileId: string }) => Promise<number>;
  /**
   * Kinds that also reference whole file folders (a playlist's folder item): the usage entries of the folder
   * whose id is the SQL `folderId`, the references that block deleting the subtrees of `folderIds` (`folderIds`
   * and every folder below them), and their removal once the delete goes ahead.
   */
  folders?: {
    usage: (folderId: SQL) => SQL;
    countBlocking: (tx: Executor, input: { folderIds: readonly string[]; removeFromPlaylists: boolean }) => Promise<number>;
    detach: (tx: Executor, ctx: ServiceContext, input: { folderIds: readonly string[]; removeFromPlaylists: boolean }) => Promise<void>;
  };
};

export const fileReferences = definePlugPoint<FileReferenceKind>('fileReferences', (k) => k.name);

/** The jsonb array of every registered usage of `field` for the file `fileId` (`[]` today). */
export function fileUsageSql(field: FileUsageField, fileId: SQL): SQL {
  return lazySql(() => {
    const parts = fileReferences
      .items()
      .filter((k) => k.usageField === field)
      .map((k) => sql`coalesce(${k.usage(fileId)}, '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}

/** The jsonb array of every registered usage of `field` for the file folder `folderId` (`[]` when none). */
export function folderUsageSql(field: FileUsageField, folderId: SQL): SQL {
  return lazySql(() => {
    const parts = fileReferences
      .items()
      .filter((k) => k.usageField === field && k.folders)
      .map((k) => sql`coalesce(${k.folders!.usage(folderId)}, '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}

export type FileBlocker = { kind: string; count: number };

/** The reference kinds that keep `fileIds` from being deleted, with their counts (empty: free to delete). */
export async function fileDeletionBlockers(
  tx: Executor,
  input: { fileIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<FileBlocker[]> {
  const blockers: FileBlocker[] = [];
  for (const kind of fileReferences.items()) {
    const count = kind.countBlocking ? await kind.countBlocking(tx, input) : 0;
    if (count > 0) blockers.push({ kind: kind.name, count });
  }

  return blockers;
}

/** The reference kinds that keep the folder subtrees of `folderIds` from being deleted (folder items; files are asked separately). */
export async function folderDeletionBlockers(
  tx: Executor,
  input: { folderIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<FileBlocker[]> {
  const blockers: FileBlocker[] = [];
  if (input.folderIds.length === 0) return blockers;
  for (const kind of fileReferences.items()) {
    const count = kind.folders ? await kind.folders.countBlocking(tx, input) : 0;
    if (count > 0) blockers.push({ kind: kind.name, count });
  }

  return blockers;
}

/** Lets every kind drop its references to the folder subtrees of `folderIds` before they are deleted. */
export async function detachFolderReferences(
  tx: Executor,
  ctx: ServiceContext,
  input: { folderIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<void> {
  if (input.folderIds.length === 0) return;
  for (const kind of fileReferences.items()) await kind.folders?.detach(tx, ctx, input);
}

/** Lets every kind drop its references to `fileIds` before their rows are deleted. */
export async function detachFileReferences(
  tx: Executor,
  ctx: FileWriteContext,
  input: { fileIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<void> {
  for (const kind of fileReferences.items()) await kind.detach?.(tx, ctx, input);
}

/** Swaps references of every kind; answers the count per kind (kinds with none left out). */
export async function swapFileReferences(
  tx: Executor,
  ctx: FileWriteContext,
  input: { fromFileId: string; toFileId: string },
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const kind of fileReferences.items()) {
    const count = await kind.replace(tx, ctx, input);
    if (count > 0) changed[kind.name] = count;
  }

  return changed;
}

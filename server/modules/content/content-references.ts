import type { SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { ConflictError, NotFoundError } from '@/server/errors';
import type { FileReferenceKind } from '@/server/modules/files';
import { expectedWords, idsOf, satisfies, type DataReferences } from './content-data.rules';
import { contentReferenceTargets } from './content-reference-targets';
import { existingIds, findContentKinds, reachesContent } from './content.queries';
import {
  contentReferencesOfFiles,
  contentReferencesOfFolders,
  countFileReferences,
  countFolderReferences,
  removeFilesFromPlaylists,
  removeFoldersFromPlaylists,
  replaceFileInContent,
} from './content-references.queries';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A document's references must point at the customer's own files, folders and content (404 otherwise, never
 * revealing another tenant's ids), at content of the kind the place allows (409 `content.error.embedding`),
 * and never back at the item itself, directly or through nested content (409 `content.error.cycle`).
 */
export async function checkReferences(tx: Executor, input: { customerId: number; selfId: string; refs: DataReferences }): Promise<void> {
  const { customerId, refs } = input;
  for (const [kind, pointers] of [
    ['file', refs.files],
    ['fileFolder', refs.fileFolders],
  ] as const) {
    const found = await existingIds(tx, kind, customerId, idsOf(pointers));
    const missing = pointers.find((p) => !found.has(p.id.toLowerCase()));
    if (missing) throw new NotFoundError(kind, missing.id);
  }
  if (refs.datasources.length > 0) {
    const target = contentReferenceTargets.get('datasource');
    // Ids that are no UUID name nothing (the reference column is a uuid): missing like another tenant's.
    const ids = idsOf(refs.datasources).filter((id) => UUID.test(id));
    const found = target ? await target.existing(tx, customerId, ids) : new Set<string>();
    const missing = refs.datasources.find((p) => !found.has(p.id.toLowerCase()));
    if (missing) throw new NotFoundError('datasource', missing.id);
  }
  const self = input.selfId.toLowerCase();
  const selfPointer = refs.contents.find((p) => p.id.toLowerCase() === self);
  if (selfPointer)
    throw new ConflictError('content.error.cycle', `Content cannot embed itself (${selfPointer.path})`, {
      path: selfPointer.path,
      id: selfPointer.id,
    });
  const kinds = new Map((await findContentKinds(tx, customerId, idsOf(refs.contents))).map((k) => [k.id, k]));
  for (const pointer of refs.contents) {
    const target = kinds.get(pointer.id.toLowerCase());
    if (!target) throw new NotFoundError('deviceContent', pointer.id);
    if (!satisfies(pointer.expects, target)) {
      throw new ConflictError('content.error.embedding', `${pointer.path} must be ${expectedWords(pointer.expects)}`, {
        path: pointer.path,
        id: pointer.id,
        expected: pointer.expects,
      });
    }
  }
  if (await reachesContent(tx, customerId, idsOf(refs.contents), self)) {
    throw new ConflictError('content.error.cycle', 'Content cannot embed itself through nested content', { id: input.selfId });
  }
}

/**
 * Content and playlists as users of files (the file reference registry): usage details of files, the
 * delete guard (every reference blocks, except a playlist's direct file items when `removeFromPlaylists`,
 * which are then removed from the playlist's document) and `replaceFileReference` (the id swapped in
 * every document, in SQL); the same for a playlist's folder items when a file folder is deleted.
 */
export const contentFileReferences: FileReferenceKind = {
  name: 'deviceContent',
  usageField: 'usageDetails',
  usage: (fileId: SQL) => contentReferencesOfFiles(fileId),
  countBlocking: (tx, input) => countFileReferences(tx, input),
  detach: async (tx, _ctx, input) => {
    if (input.removeFromPlaylists) await removeFilesFromPlaylists(tx, input.fileIds);
  },
  replace: (tx, _ctx, input) => replaceFileInContent(tx, input),
  folders: {
    usage: (folderId: SQL) => contentReferencesOfFolders(folderId),
    countBlocking: (tx, input) => countFolderReferences(tx, input),
    detach: async (tx, _ctx, input) => {
      if (input.removeFromPlaylists) await removeFoldersFromPlaylists(tx, input.folderIds);
    },
  },
};

import type { Executor } from '@/server/db/client';
import { NotFoundError, ValidationError } from '@/server/errors';
import { swapFileReferences, type FileWriteContext } from './file-reference-registry';
import { copyFileTeams } from './files.queries';
import { auditFile, deleteCheckedFiles, writableFile } from './files.service';
import { announcePlaybackChange } from '@/server/playback/playback-changes';

// CONTRACT (owned by the files helper; replace the body, keep the signature):

export type ReplaceFileReferenceInput = {
  fileIdToReplace: string;
  sourceFileId: string;
  removeOldFile: boolean;
  teamAssignmentMode: 'MERGE' | 'OVERWRITE' | 'KEEP_TARGET';
};

/**
 * PUT /api/file/replaceFileReference and the upload parameter `fileIdToReplace`: swaps every reference to
 * `fileIdToReplace` (through the file reference registry) for `sourceFileId`, applies the team assignment
 * mode, and deletes the old file when `removeOldFile`. Runs in the caller's transaction; writes its audit entry.
 *
 * Team modes (the "target" is `sourceFileId`, the file the references point at afterwards): MERGE adds the
 * old file's teams to it (a team both have keeps the target's read-only flag), OVERWRITE gives it exactly
 * the old file's teams, KEEP_TARGET leaves its teams alone. Both files must be visible and writable for
 * the caller and belong to the same customer (404 otherwise). The caller may be the system (a FILE_FROM_URL refresh).
 */
export async function replaceFileReference(tx: Executor, ctx: FileWriteContext, input: ReplaceFileReferenceInput): Promise<void> {
  if (input.fileIdToReplace.toLowerCase() === input.sourceFileId.toLowerCase()) {
    throw new ValidationError('file.error.replaceWithItself', 'A file cannot replace itself', { fileId: input.sourceFileId });
  }
  const old = await writableFile(tx, ctx, input.fileIdToReplace);
  const source = await writableFile(tx, ctx, input.sourceFileId);
  if (source.customerId !== old.customerId) throw new NotFoundError('file', input.sourceFileId);

  await announcePlaybackChange(tx, { customerId: old.customerId, fileIds: [old.id] });
  const swapped = await swapFileReferences(tx, ctx, { fromFileId: old.id, toFileId: source.id });
  if (input.teamAssignmentMode !== 'KEEP_TARGET') {
    await copyFileTeams(tx, {
      fromFileId: old.id,
      toFileId: source.id,
      customerId: source.customerId,
      overwrite: input.teamAssignmentMode === 'OVERWRITE',
    });
  }
  await auditFile(tx, ctx, source, 'replaceFileReference', `References of file '${old.name}' moved to '${source.name}'`, {
    fileIdToReplace: old.id,
    sourceFileId: source.id,
    teamAssignmentMode: input.teamAssignmentMode,
    removeOldFile: input.removeOldFile,
    references: swapped,
  });
  if (input.removeOldFile) await deleteCheckedFiles(tx, ctx, [old], false);
}

import type { Executor } from '@/server/db/client';
import type { ServiceContext } from '@/server/http/context';

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
 */
export async function replaceFileReference(_tx: Executor, _ctx: ServiceContext, _input: ReplaceFileReferenceInput): Promise<void> {
  throw new Error('replaceFileReference: not written yet');
}

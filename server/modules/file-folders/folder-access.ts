import type { Executor } from '@/server/db/client';
import type { ServiceContext } from '@/server/http/context';

// CONTRACT (owned by the file-folders helper; replace the body, keep the signature):

export type TargetFolder = { id: string; customerId: number; path: string[] };

/**
 * The stored folder a new file goes into: `parentId`, or the customer's root file folder when absent.
 * 404 when the folder is not in the caller's scope or not visible to the caller's teams, 403
 * `team.error.readOnly` for a read-only team assignment, 409 for a filtered folder (`fileFolderType=2`).
 * `customerId` is the tenant the write acts on (targetCustomerId(scope, actor)).
 */
export async function resolveTargetFolder(_tx: Executor, _ctx: ServiceContext, _customerId: number, _parentId: string | undefined): Promise<TargetFolder> {
  throw new Error('resolveTargetFolder: not written yet');
}

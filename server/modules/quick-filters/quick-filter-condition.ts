import type { SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import type { ServiceContext } from '@/server/http/context';
import type { filteredEntityTypes } from './quick-filters.table';

export type FilteredEntityType = (typeof filteredEntityTypes)[number];

// CONTRACT (owned by the tags/quick-filters helper; replace the body, keep the signature):

/**
 * The `quickFilterId` read parameter (spec 1): the saved filter's criteria compiled to one SQL condition over
 * the entity's own table (through the query compiler), ANDed with `search` by the caller. 404 for an
 * unknown or invisible filter, 400 when its `filteredEntityType` is not `entityType`.
 */
export async function quickFilterCondition(_tx: Executor, _ctx: ServiceContext, _quickFilterId: string, _entityType: FilteredEntityType): Promise<SQL> {
  throw new Error('quickFilterCondition: not written yet');
}

import { type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { teamAccessCondition } from '@/server/modules/teams';
import { criteriaCondition } from './quick-filter-criteria';
import { findQuickFilter } from './quick-filters.queries';
import { quickFilters, type filteredEntityTypes } from './quick-filters.table';

export type FilteredEntityType = (typeof filteredEntityTypes)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `quickFilterId` read parameter (spec 1): the saved filter's criteria compiled to one SQL condition over
 * the entity's own table (through the query compiler), ANDed with `search` by the caller. 404 for an
 * unknown or invisible filter, 400 when its `filteredEntityType` is not `entityType`.
 */
export async function quickFilterCondition(
  tx: Executor,
  ctx: ServiceContext,
  quickFilterId: string,
  entityType: FilteredEntityType,
): Promise<SQL> {
  const row = UUID.test(quickFilterId)
    ? await findQuickFilter(tx, ctx.scope, quickFilterId, teamAccessCondition(ctx, 'quickFilter', quickFilters.id))
    : undefined;
  if (!row) throw new NotFoundError('quickFilter', quickFilterId);
  if (row.filteredEntityType !== entityType) {
    throw new ValidationError(
      'quickFilter.error.wrongType',
      `Quick filter '${row.name}' filters ${row.filteredEntityType}, not ${entityType}`,
      {
        parameter: 'quickFilterId',
        filteredEntityType: row.filteredEntityType,
      },
    );
  }

  return criteriaCondition(row.filteredEntityType, row.criteria, { customerId: row.customerId, now: new Date() });
}

import type { Executor } from '@/server/db/client';
import { criteriaCondition } from '@/server/modules/quick-filters';
import * as q from './datasources.queries';
import type { DatasourceRow } from './datasources.table';

/** How many elements a FILES or DEVICES datasource lists when it names no `maxElementCount`. */
const DEFAULT_ELEMENT_COUNT = 100;

/**
 * The documents of the system types (spec 5 §2), computed when read: FILES lists the files of its quick filter
 * `{id, name, contentType, width, height, duration, url}`, DEVICES the customer's devices `{id, name,
 * deviceStatus, lastActivity, folderPath}`; both by name, at most `maxElementCount`.
 */
export async function computeSystemDocument(
  db: Executor,
  row: Pick<DatasourceRow, 'customerId' | 'systemDatasourceType' | 'quickFilterId' | 'maxElementCount'>,
): Promise<unknown[]> {
  const limit = row.maxElementCount ?? DEFAULT_ELEMENT_COUNT;
  if (row.systemDatasourceType === 'FILES') {
    const filter = row.quickFilterId ? await q.findQuickFilterCriteria(db, row.customerId, row.quickFilterId) : undefined;
    if (!filter || filter.filteredEntityType !== 'FILE') return [];
    const condition = criteriaCondition('FILE', filter.criteria, { customerId: row.customerId, now: new Date() });
    return q.findFilesMatching(db, { customerId: row.customerId, condition, limit });
  }
  if (row.systemDatasourceType === 'DEVICES') {
    const rows = await q.findDevicesOf(db, { customerId: row.customerId, limit });
    return rows.map((r) => ({ ...r, lastActivity: r.lastActivity === null ? null : Number(r.lastActivity) }));
  }

  return [];
}

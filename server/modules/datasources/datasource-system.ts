import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
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
    const rows = await db
      .select({
        id: files.id,
        name: files.name,
        contentType: files.contentType,
        width: files.width,
        height: files.height,
        duration: sql<number | null>`case when jsonb_typeof(${files.metaData}->'duration') = 'number' then (${files.metaData}->>'duration')::float8 end`,
        url: sql<string>`'/api/storage/customer/' || ${files.customerId}::text || '/files/' || ${files.id}::text`,
      })
      .from(files)
      .where(and(eq(files.customerId, row.customerId), condition))
      .orderBy(asc(files.name), asc(files.id))
      .limit(limit);

    return rows;
  }
  if (row.systemDatasourceType === 'DEVICES') {
    const rows = await db
      .select({
        id: devices.id,
        name: devices.name,
        deviceStatus: devices.deviceStatus,
        lastActivity: sql<number | null>`(extract(epoch from ${devices.lastActivity}) * 1000)::bigint`,
        folderPath: sql<string>`coalesce((select string_agg(g.name, '/' order by array_position(${devices.groupPath}, g.id))
                                  from ${deviceGroups} g where g.id = any(${devices.groupPath})), '')`,
      })
      .from(devices)
      .where(eq(devices.customerId, row.customerId))
      .orderBy(asc(devices.name), asc(devices.id))
      .limit(limit);

    return rows.map((r) => ({ ...r, lastActivity: r.lastActivity === null ? null : Number(r.lastActivity) }));
  }

  return [];
}

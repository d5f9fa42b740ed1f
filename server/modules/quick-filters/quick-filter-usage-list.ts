import { sql } from 'drizzle-orm';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { registerQuickFilterUsage } from './quick-filter-usages';

/*
 * The modules that reference quick filters today. Campaigns (`fileQuickFilterId`, …), messages and
 * datasources add one line each here (a central list, so registration never depends on import order).
 */
registerQuickFilterUsage({
  name: 'fileFolder',
  // A filtered folder shows the filter's files; deleting the filter would leave it pointing at nothing.
  count: (id) => sql`select count(*) from ${fileFolders} where ${fileFolders.quickFilterId} = ${id}`,
  blocksDelete: true,
  makesReadOnly: false,
});

export { quickFilterDeletionBlockers, quickFilterUsageSql, usedByChannelsSql } from './quick-filter-usages';

import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { contentReferenceTargets } from '@/server/modules/content';
import { defineModule, plug } from '@/server/modules/module';
import { quickFilterUsages } from '@/server/modules/quick-filters';
import { tagSources } from '@/server/modules/tags';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { createBlobStore, type BlobStore } from '@/server/storage';
import { customerStatistics } from '@/server/tenant/customer-statistics';
import { rebuildDueCalendars } from './calendar-document';
import { calendarEvents } from './calendar-events.table';
import { createRefresher, registerRefreshWaker } from './datasource-refresh';
import { datasourceOutbound } from './datasource-refresh.service';
import { registerDatasourceRoutes } from './datasources.handlers';
import { countDatasourcesOf, datasourceStorageSql, insertDatasource, lockExistingDatasources } from './datasources.queries';
import { datasourceData, datasources } from './datasources.table';

/** Refreshes one instance runs at once: a slow remote (up to 30 s) holds one slot, not the scheduler. */
const REFRESH_CONCURRENCY = 16;

export const datasourcesModule = defineModule({
  name: 'datasources',
  routes: registerDatasourceRoutes,
  tables: [datasources, datasourceData, calendarEvents],
  plugs: [
    plug(teamResources, { type: 'datasource', table: datasources, idColumn: datasources.id, customerIdColumn: datasources.customerId }),
    plug(tagSources, {
      name: 'datasource',
      tagType: 'DATASOURCE',
      table: datasources,
      tagsColumn: datasources.tags,
      customerIdColumn: datasources.customerId,
    }),
    plug(usageCounters, { resource: 'DATASOURCE', count: countDatasourcesOf }),
    // A slide's datasource widgets reference datasources: saving content checks (and locks) them here.
    plug(contentReferenceTargets, { type: 'datasource', existing: lockExistingDatasources }),
    plug(customerStatistics, { statistic: 'currentDatasourceStorageSize', sql: (customerId) => datasourceStorageSql(customerId) }),
    plug(quickFilterUsages, {
      name: 'datasource',
      count: (quickFilterId) => sql`(select count(*) from ${datasources} where ${datasources.quickFilterId} = ${quickFilterId})`,
      blocksDelete: true,
      makesReadOnly: false,
    }),
  ],
  jobs: ({ db, config, log, stopping }) => {
    // FILE_FROM_URL downloads go to the blob store, opened on first use (as the uploads module's jobs do).
    let store: Promise<BlobStore> | undefined;
    const blobStore = () => (store ??= createBlobStore(config));
    const refresher = createRefresher({ db, outbound: datasourceOutbound(config), log, blobStore, concurrency: REFRESH_CONCURRENCY });
    // A refresh made due now (the console's refresh, a webhook action) starts at once on this instance.
    registerRefreshWaker(refresher.wake);
    // The instance stops: no more claims (refreshes under way finish, or their lease lets another instance retry).
    stopping?.addEventListener('abort', () => void refresher.stop(), { once: true });

    // One tick every 5 s for every instance together (the job runner keeps one run per time); between ticks the
    // refresher claims on its own when the next datasource falls due, so refreshes start on time; an idle tick costs
    // two indexed statements. The same tick builds again the calendar
    // documents the clock has changed (a suspension ran out, an event left or entered the window).
    const tick = async () => {
      const [refreshes, calendars] = await Promise.allSettled([refresher.tick(), rebuildDueCalendars({ db, log })]);
      for (const outcome of [refreshes, calendars]) if (outcome.status === 'rejected') throw outcome.reason;
    };

    return [{ name: 'datasources.refresh-due', cron: '*/5 * * * * *', run: tick }];
  },
  sweep: {
    datasource: async (db, customerId) => {
      const id = uuidv7();
      await insertDatasource(db, {
        id,
        customerId,
        name: `sweep ${id.slice(-12)}`,
        sourceType: 'INTERNAL',
        structureType: 'KEY_VALUE',
        editableByDisplay: false,
      });

      return id;
    },
  },
});

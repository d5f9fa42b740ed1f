import { v7 as uuidv7 } from 'uuid';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { registerQuickFilterRoutes } from './quick-filters.handlers';
import { countQuickFiltersOf, insertQuickFilter } from './quick-filters.queries';
import { quickFilters } from './quick-filters.table';

export const quickFiltersModule = defineModule({
  name: 'quick-filters',
  routes: registerQuickFilterRoutes,
  tables: [quickFilters],
  plugs: [
    plug(teamResources, { type: 'quickFilter', table: quickFilters, idColumn: quickFilters.id, customerIdColumn: quickFilters.customerId }),
    plug(usageCounters, { resource: 'QUICK_FILTER', count: countQuickFiltersOf }),
  ],
  sweep: {
    quickFilter: async (db, customerId) => {
      const id = uuidv7();
      await insertQuickFilter(db, { id, customerId, name: `sweep ${id}`, filteredEntityType: 'FILE', criteria: { type: 'FILE' } });

      return id;
    },
  },
});

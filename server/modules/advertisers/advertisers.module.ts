import { v7 as uuidv7 } from 'uuid';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { registerAdvertiserRoutes } from './advertisers.handlers';
import { countAdvertisersOf, insertAdvertiser } from './advertisers.queries';
import { advertisers } from './advertisers.table';

export const advertisersModule = defineModule({
  name: 'advertisers',
  routes: registerAdvertiserRoutes,
  tables: [advertisers],
  plugs: [
    plug(teamResources, { type: 'advertiser', table: advertisers, idColumn: advertisers.id, customerIdColumn: advertisers.customerId }),
    plug(usageCounters, { resource: 'ADVERTISER', count: countAdvertisersOf }),
  ],
  sweep: {
    advertiser: async (db, customerId) => {
      const id = uuidv7();
      await insertAdvertiser(db, { id, customerId, name: `sweep ${id.slice(-12)}` });

      return id;
    },
  },
});

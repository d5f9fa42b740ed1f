import { v7 as uuidv7 } from 'uuid';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { registerUiProfileRoutes } from './ui-profiles.handlers';
import { countUiProfilesOf, insertUiProfile } from './ui-profiles.queries';
import { uiProfiles } from './ui-profiles.table';

export const uiProfilesModule = defineModule({
  name: 'ui-profiles',
  routes: registerUiProfileRoutes,
  tables: [uiProfiles],
  plugs: [plug(usageCounters, { resource: 'UI_PROFILE', count: countUiProfilesOf })],
  sweep: {
    uiProfile: async (db, customerId) =>
      String((await insertUiProfile(db, { customerId, name: `sweep ${uuidv7()}`, hiddenUIElementRules: {} })).id),
  },
});

import { v7 as uuidv7 } from 'uuid';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { registerTeamRoutes } from './teams.handlers';
import { countTeamsOf, insertTeam } from './teams.queries';
import { teamAssignments, teams } from './teams.table';

export const teamsModule = defineModule({
  name: 'teams',
  routes: registerTeamRoutes,
  tables: [teams, teamAssignments],
  plugs: [plug(usageCounters, { resource: 'TEAM', count: countTeamsOf })],
  sweep: { team: async (db, customerId) => (await insertTeam(db, { id: uuidv7(), customerId, name: `sweep ${uuidv7()}` })).id },
});

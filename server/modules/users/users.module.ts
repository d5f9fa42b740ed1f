import { inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { secondFactorStores } from '@/server/auth/totp';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { uiProfileHolders } from '@/server/modules/ui-profiles';
import { registerPasswordSetupRoutes } from './password-setup.handlers';
import { passwordSetupTokens } from './password-setup.table';
import { registerUserRoutes } from './users.handlers';
import { countUsersOf, findSecondFactor, insertUser, spendTotpStep } from './users.queries';
import { assignUiProfile, countUsersWithUiProfile, findForeignUserIds, unassignUiProfile } from './ui-profile-holders.queries';
import { userProfilePictures, users } from './users.table';

export const usersModule = defineModule({
  name: 'users',
  routes: (app) => {
    registerUserRoutes(app);
    registerPasswordSetupRoutes(app);
  },
  tables: [users, userProfilePictures, passwordSetupTokens],
  plugs: [
    plug(teamResources, {
      type: 'user',
      table: users,
      idColumn: users.id,
      customerIdColumn: users.customerId,
      naturalKey: users.email,
      // Spec 1: a user with role OWNER cannot belong to a team; ADMIN is above every team likewise.
      cannotJoin: {
        condition: inArray(users.role, ['OWNER', 'ADMIN']),
        key: 'team.error.ownerCannotJoin',
        message: 'An OWNER or ADMIN user cannot belong to a team',
      },
    }),
    plug(usageCounters, { resource: 'USER', count: countUsersOf }),
    plug(secondFactorStores, { secondFactorOf: findSecondFactor, spendStep: spendTotpStep }),
    plug(uiProfileHolders, {
      foreignIds: findForeignUserIds,
      assign: assignUiProfile,
      unassign: unassignUiProfile,
      count: countUsersWithUiProfile,
    }),
  ],
  sweep: {
    user: async (db, customerId) => {
      const id = uuidv7();

      return (await insertUser(db, { id, customerId, email: `sweep-${id}@example.com`, name: 'Sweep', role: 'EDITOR' })).id;
    },
  },
});

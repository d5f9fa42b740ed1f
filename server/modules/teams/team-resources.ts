import { inArray } from 'drizzle-orm';
import { files } from '@/server/modules/files/files.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { users } from '@/server/modules/users/users.table';
import { registerTeamResource } from './team-registry';

/*
 * The resource kinds that take part in teams today. A new team-capable module adds one line here
 * (a central list rather than a side effect in each module, so registration never depends on import order).
 */
registerTeamResource({
  type: 'user',
  table: users,
  idColumn: users.id,
  customerIdColumn: users.customerId,
  // Spec 1: a user with role OWNER cannot belong to a team; ADMIN is above every team likewise.
  cannotJoin: { condition: inArray(users.role, ['OWNER', 'ADMIN']), key: 'team.error.ownerCannotJoin', message: 'An OWNER or ADMIN user cannot belong to a team' },
});
registerTeamResource({ type: 'deviceGroup', table: deviceGroups, idColumn: deviceGroups.id, customerIdColumn: deviceGroups.customerId });
registerTeamResource({ type: 'fileFolder', table: fileFolders, idColumn: fileFolders.id, customerIdColumn: fileFolders.customerId });
registerTeamResource({ type: 'contentGroup', table: contentGroups, idColumn: contentGroups.id, customerIdColumn: contentGroups.customerId });
registerTeamResource({ type: 'file', table: files, idColumn: files.id, customerIdColumn: files.customerId });
registerTeamResource({ type: 'quickFilter', table: quickFilters, idColumn: quickFilters.id, customerIdColumn: quickFilters.customerId });

export { findTeamResource, registeredTeamResources } from './team-registry';

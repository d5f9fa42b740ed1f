import { files } from '@/server/modules/files/files.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { registerTagSource } from './tag-sources';

/*
 * The tagged tables that exist today. A new tagged module adds one line here (a central list, like
 * teams/team-resources.ts, so registration never depends on import order).
 */
registerTagSource({ name: 'file', tagType: 'FILE', table: files, tagsColumn: files.tags, customerIdColumn: files.customerId });
// Device folders carry device tags (spec 3: PUT /api/deviceGroup/{id} body {tags}); devices join when their table exists.
registerTagSource({ name: 'deviceGroup', tagType: 'DEVICE', table: deviceGroups, tagsColumn: deviceGroups.tags, customerIdColumn: deviceGroups.customerId });

export { tagSourcesOf, tagUsageSql } from './tag-sources';

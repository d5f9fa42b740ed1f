import { sql } from 'drizzle-orm';
import { deviceContents } from '@/server/modules/content/content.table';
import { contentUsageSql } from '@/server/modules/content';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { folderPathField } from '@/server/query/folder-path';
import { aliasedTable } from '@/server/query/relations';
import { defineResource } from '@/server/query/resource';

/**
 * Searchable and selectable fields of `contentGroup` (spec 2 "Content folder").
 * - `contentGroupPath` is the ids of the ancestors root first, the folder itself last (answered joined by
 *   `/`): `contentGroupPath:{id}` finds the folder and every folder below it with one GIN-indexed predicate.
 * - `contentCount` (slides and interactive content) and `simpleLoopCount` (playlists) count what lies
 *   directly in the folder; both are select-only (spec 1: computed fields only when named in `select`).
 * - `campaignUsageDetails`/`topLevelCampaignUsageDetails`/`messageUsageDetails`: channels reference content
 *   folders through `contentGroupAssignment` (CONTENT_DYNAMIC); they plug in through `contentUsages`.
 */
export const contentGroupResource = defineResource({
  name: 'contentGroup',
  table: contentGroups,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const { table: c, from: cFrom } = aliasedTable(deviceContents, 'cg_content');
    const countOf = (type: 'content' | 'simpleLoop') =>
      sql`(select count(*) from ${cFrom} where ${c.customerId} = ${t.customerId} and ${c.contentGroupId} = ${t.id} and ${c.deviceContentType} = ${type})`;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      // The root row stores a placeholder name; the spec answers none for it.
      name: { kind: 'scalar', type: 'string', sql: sql`case when ${t.parentId} is null then null else ${t.name} end` },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      parentId: { kind: 'scalar', type: 'uuid', sql: t.parentId },
      contentGroupPath: folderPathField(t.path),
      isTemplateGroup: { kind: 'scalar', type: 'boolean', sql: t.isTemplateGroup },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      contentCount: { kind: 'scalar', type: 'integer', selectOnly: true, sql: countOf('content') },
      simpleLoopCount: { kind: 'scalar', type: 'integer', selectOnly: true, sql: countOf('simpleLoop') },
      teamAssignments: teamAssignmentsField('contentGroup', t.id),
      campaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: contentUsageSql('contentGroup', 'campaignUsageDetails', sql`${t.id}`),
      },
      topLevelCampaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: contentUsageSql('contentGroup', 'topLevelCampaignUsageDetails', sql`${t.id}`),
      },
      messageUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: contentUsageSql('contentGroup', 'messageUsageDetails', sql`${t.id}`),
      },
    };
  },
});

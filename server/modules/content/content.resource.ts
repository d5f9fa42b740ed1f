import { eq, sql } from 'drizzle-orm';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { folderPathField } from '@/server/query/folder-path';
import { aliasedTable } from '@/server/query/relations';
import { defineResource, relation } from '@/server/query/resource';
import { assignedDevicesSql } from './content-assignments';
import { contentUsageSql } from './content-usages';
import { contentReferences, deviceContents } from './content.table';
import { contentDataToWire } from './slide-document.schemas';

/** A list without `select` answers these (the relations and the cheap computed fields the console shows). */
export const CONTENT_DEFAULT_SELECT = '*,lastSavedBy,contentGroup,orientation,previewPath';
/** One item read without `select`: the same and its document. */
export const CONTENT_SINGLE_SELECT = `${CONTENT_DEFAULT_SELECT},data`;

/** `lastSavedBy`: the email and name copied onto the row at each save (they outlive the user). */
const lastSavedByResource = defineResource({
  name: 'lastSavedBy',
  table: deviceContents,
  fields: (t) => ({
    email: { kind: 'scalar', type: 'string', sql: t.lastSavedByEmail },
    name: { kind: 'scalar', type: 'string', sql: t.lastSavedByName },
  }),
});

/** The item's folder as `{id, name}`. */
const contentGroupRefResource = defineResource({
  name: 'contentGroup',
  table: contentGroups,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: sql`case when ${t.parentId} is null then null else ${t.name} end` },
  }),
});

/** The resolution the item plays at: a playlist's `loopData.resolution`, a slide's first page's `screenSize`. */
function sizeSql(t: typeof deviceContents, axis: 'width' | 'height') {
  return sql`(case when ${t.deviceContentType} = 'simpleLoop' then ${t.data}->'loopData'->'resolution'->>${axis}
    else ${t.data}->'pages'->0->'pageData'->'screenSize'->>${axis} end)::int`;
}

/**
 * Searchable and selectable fields of `deviceContent` (spec 2 "Content"): slides, interactive content and
 * playlists in one list. `data` is select-only (large), and so is `firstItem` (a playlist's first item); `assignedDeviceCount` comes from the content
 * assignment plug point; `usageDetails` lists the content that embeds the item (the reference table);
 * `contentMetaData` the widgets a playlist may override.
 */
export const deviceContentResource = defineResource({
  name: 'deviceContent',
  table: deviceContents,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const { table: r, from: rFrom } = aliasedTable(contentReferences, 'dc_ref');
    const { table: u, from: uFrom } = aliasedTable(deviceContents, 'dc_user');
    const width = sizeSql(t, 'width');
    const height = sizeSql(t, 'height');

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      name: { kind: 'scalar', type: 'string', sql: t.name },
      comment: { kind: 'scalar', type: 'string', sql: t.comment },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      deviceContentType: { kind: 'scalar', type: 'enum', enumValues: ['content', 'simpleLoop'], sql: t.deviceContentType },
      structureType: { kind: 'scalar', type: 'enum', enumValues: ['SLIDE', 'COMPLEX'], sql: t.structureType },
      simpleLoopType: { kind: 'scalar', type: 'enum', enumValues: ['NORMAL', 'EINK'], sql: t.simpleLoopType },
      version: { kind: 'scalar', type: 'string', sql: t.version },
      locked: { kind: 'scalar', type: 'boolean', sql: t.locked },
      tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      lastSaved: { kind: 'scalar', type: 'datetime', sql: t.lastSaved },
      lastSavedBy: relation.one(lastSavedByResource, {
        on: (target) => eq(target.id, t.id),
        foreignKey: sql`case when ${t.lastSavedByEmail} is not null then ${t.id} end`,
        sameRow: sql`(${t.lastSavedByEmail} is not null)`,
      }),
      contentGroupId: { kind: 'scalar', type: 'uuid', sql: t.contentGroupId },
      contentGroup: relation.one(contentGroupRefResource, {
        on: (target) => eq(target.id, t.contentGroupId),
        foreignKey: t.contentGroupId,
      }),
      contentGroupPath: folderPathField(t.groupPath),
      assignedDeviceCount: {
        kind: 'scalar',
        type: 'integer',
        selectOnly: true,
        sql: sql`(select count(distinct d.device_id) from (${assignedDevicesSql(sql`${t.id}`)}) d)`,
      },
      previewPath: {
        kind: 'scalar',
        type: 'string',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: sql`'/content/' || ${t.id}::text || '/preview'`,
      },
      orientation: {
        kind: 'scalar',
        type: 'enum',
        enumValues: ['landscape', 'portrait', 'square'],
        selectOnly: true,
        sql: sql`case when ${width} is null or ${height} is null then null when ${width} > ${height} then 'landscape' when ${width} < ${height} then 'portrait' else 'square' end`,
      },
      // Stored as a page list, answered keyed by page name (DECISIONS §2): converted after reading.
      data: { kind: 'scalar', type: 'json', selectOnly: true, sql: t.data, toWire: contentDataToWire },
      // The console's library draws a playlist's card from its first item without loading the whole document.
      firstItem: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`case when ${t.deviceContentType} = 'simpleLoop' then ${t.data}->'slides'->0 end`,
      },
      contentMetaData: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`jsonb_build_object('quickEditWidgets', (select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('page', p->>'name', 'id', w->>'id', 'type', w->>'type', 'name', w->>'name'))), '[]'::jsonb)
          from jsonb_array_elements(case when jsonb_typeof(${t.data}->'pages') = 'array' then ${t.data}->'pages' else '[]'::jsonb end) p,
               jsonb_array_elements(case when jsonb_typeof(p->'widgets') = 'array' then p->'widgets' else '[]'::jsonb end) w
          where w->>'quickEdit' = 'true'))`,
      },
      usageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`(select coalesce(jsonb_agg(jsonb_build_object('id', ${u.id}, 'name', ${u.name}, 'deviceContentType', ${u.deviceContentType}) order by ${u.name}, ${u.id}), '[]'::jsonb)
          from ${rFrom} join ${uFrom} on ${u.id} = ${r.contentId} where ${r.customerId} = ${t.customerId} and ${r.targetType} = 'content' and ${r.targetId} = ${t.id})`,
      },
      campaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: contentUsageSql('content', 'campaignUsageDetails', sql`${t.id}`),
      },
      topLevelCampaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: contentUsageSql('content', 'topLevelCampaignUsageDetails', sql`${t.id}`),
      },
      messageUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: contentUsageSql('content', 'messageUsageDetails', sql`${t.id}`),
      },
      teamAssignments: teamAssignmentsField('deviceContent', t.id),
    };
  },
});

import { eq, sql } from 'drizzle-orm';
import { teamAssignmentsField } from '@/server/modules/teams';
import { aliasedTable } from '@/server/query/relations';
import { folderPathField } from '@/server/query/folder-path';
import { defineResource, relation } from '@/server/query/resource';
import { fileUsageSql } from './file-reference-registry';
import { files } from './files.table';

/** The file's `creator` object: the email and name copied onto the row at upload (they outlive the user). */
const fileCreatorResource = defineResource({
  name: 'creator',
  table: files,
  fields: (t) => ({
    email: { kind: 'scalar', type: 'string', sql: t.creatorEmail },
    name: { kind: 'scalar', type: 'string', sql: t.creatorName },
  }),
});

/** The download path of a file (spec 2 "URL patterns"); the thumbnail adds `.tmb`. */
function fileLocationSql(t: typeof files) {
  return sql`'/api/storage/customer/' || ${t.customerId}::text || '/files/' || ${t.id}::text`;
}

/**
 * The thumbnail URL, or null before one is uploaded. Downloads are cached as immutable, so the URL
 * names the upload time (`?v=`, ignored by the server): a replaced thumbnail gets a new URL.
 */
export function thumbnailLocationSql(t: typeof files) {
  return sql`case when ${t.lastPreviewUploadTime} is not null
    then ${fileLocationSql(t)} || '.tmb?v=' || (extract(epoch from ${t.lastPreviewUploadTime}) * 1000)::bigint::text end`;
}

/**
 * Searchable and selectable fields of `file` (spec 2 "File"). `fileFolderPath` is the path of the file's
 * folder (root first; a uuid[] column, answered as ids joined by `/`), so `fileFolderPath:{id}` finds
 * files anywhere below a folder.
 * The usage fields come from the file reference registry (file-reference-registry.ts).
 */
export const fileResource = defineResource({
  name: 'file',
  table: files,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const { table: other, from: otherFrom } = aliasedTable(files, 'file_duplicate');
    const location = fileLocationSql(t);
    const id = sql`${t.id}`;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      name: { kind: 'scalar', type: 'string', sql: t.name },
      contentType: { kind: 'scalar', type: 'string', sql: t.contentType },
      size: { kind: 'scalar', type: 'integer', sql: t.size },
      width: { kind: 'scalar', type: 'integer', sql: t.width },
      height: { kind: 'scalar', type: 'integer', sql: t.height },
      createDate: { kind: 'scalar', type: 'epochMs', sql: t.createdDate },
      creatorEmail: { kind: 'scalar', type: 'string', sql: t.creatorEmail },
      creator: relation.one(fileCreatorResource, {
        // Absent (not an empty object) when the upload recorded no creator.
        on: (c) => sql`${eq(c.id, t.id)} and (${c.creatorEmail} is not null or ${c.creatorName} is not null)`,
        foreignKey: sql`case when ${t.creatorEmail} is not null or ${t.creatorName} is not null then ${t.id} end`,
        // Selected from the row's own columns (no second look-up of the row per result).
        sameRow: sql`(${t.creatorEmail} is not null or ${t.creatorName} is not null)`,
      }),
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      fileFolderId: { kind: 'scalar', type: 'uuid', sql: t.fileFolderId },
      fileFolderPath: folderPathField(t.folderPath),
      location: { kind: 'scalar', type: 'string', sql: location, searchable: false, sortable: false },
      thumbnail: {
        kind: 'scalar',
        type: 'string',
        sql: thumbnailLocationSql(t),
        searchable: false,
        sortable: false,
      },
      previewPath: { kind: 'scalar', type: 'string', sql: t.previewPath },
      crcCheckSum: { kind: 'scalar', type: 'string', sql: t.crcCheckSum },
      validFrom: { kind: 'scalar', type: 'epochMs', sql: t.validFrom },
      validTo: { kind: 'scalar', type: 'epochMs', sql: t.validTo },
      fileMutabilityType: { kind: 'scalar', type: 'string', sql: t.fileMutabilityType },
      tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
      metaData: { kind: 'scalar', type: 'json', sql: t.metaData },
      muted: { kind: 'scalar', type: 'boolean', sql: t.muted },
      lastPreviewUploadTime: { kind: 'scalar', type: 'epochMs', sql: t.lastPreviewUploadTime },
      orientation: {
        kind: 'scalar',
        type: 'enum',
        enumValues: ['landscape', 'portrait', 'square'],
        sql: sql`case when ${t.width} is null or ${t.height} is null then null
          when ${t.width} > ${t.height} then 'landscape' when ${t.width} < ${t.height} then 'portrait' else 'square' end`,
      },
      // No cloud sync exists yet: every file is an uploaded one.
      isCloudAFile: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      isCloudBFile: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      teamAssignments: teamAssignmentsField('file', t.id),
      usageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`jsonb_build_object('contentUsage', ${fileUsageSql('usageDetails', id)})`,
      },
      duplicateDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`(select coalesce(jsonb_agg(jsonb_build_object('id', ${other.id}, 'name', ${other.name}, 'fileFolderId', ${other.fileFolderId},
            'size', ${other.size}, 'createDate', (extract(epoch from ${other.createdDate}) * 1000)::bigint) order by ${other.createdDate}, ${other.id}), '[]'::jsonb)
          from ${otherFrom} where ${other.customerId} = ${t.customerId} and ${other.crcCheckSum} = ${t.crcCheckSum} and ${other.id} <> ${t.id})`,
      },
      campaignUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: fileUsageSql('campaignUsageDetails', id) },
      topLevelCampaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: fileUsageSql('topLevelCampaignUsageDetails', id),
      },
      messageUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: fileUsageSql('messageUsageDetails', id) },
    };
  },
});

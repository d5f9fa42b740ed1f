import { sql } from 'drizzle-orm';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource } from '@/server/query/resource';
import { sourceTypes, structureTypes } from './datasources.schemas';
import { datasourceData, datasources } from './datasources.table';

/**
 * The content that uses a datasource, with the widgets that show it: a jsonb array of `{contentId, contentName,
 * deviceContentType, widgets: [{page, widgetId, widgetName}]}`. The content comes from `content_reference` (indexed
 * by target); the widgets from the stored pages (`data.pages`, each with its `name`), read only for those items.
 */
function datasourceUsageSql(datasourceId: ReturnType<typeof sql> | typeof datasources.id) {
  const r = contentReferences;
  const c = deviceContents;

  return sql`(select coalesce(jsonb_agg(jsonb_build_object(
        'contentId', ${c.id}, 'contentName', ${c.name}, 'deviceContentType', ${c.deviceContentType},
        'widgets', coalesce((select jsonb_agg(jsonb_build_object('page', p->>'name', 'widgetId', w->>'id', 'widgetName', w->>'name') order by p->>'name', w->>'id')
                     from jsonb_array_elements(case when jsonb_typeof(${c.data}->'pages') = 'array' then ${c.data}->'pages' else '[]'::jsonb end) p
                     cross join lateral jsonb_array_elements(case when jsonb_typeof(p->'widgets') = 'array' then p->'widgets' else '[]'::jsonb end) w
                    where w->>'type' = 'datasource' and lower(w->>'datasourceId') = ${datasourceId}::text), '[]'::jsonb))
        order by ${c.name}, ${c.id}), '[]'::jsonb)
      from ${r} join ${c} on ${c.id} = ${r.contentId}
     where ${r.targetType} = 'datasource' and ${r.targetId} = ${datasourceId})`;
}

/** Searchable and selectable fields of `datasource` (spec 3). `readOnly` is added by the service (teams). */
export const datasourceResource = defineResource({
  name: 'datasource',
  table: datasources,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    sourceType: { kind: 'scalar', type: 'enum', enumValues: sourceTypes, sql: t.sourceType },
    structureType: { kind: 'scalar', type: 'enum', enumValues: structureTypes, sql: t.structureType },
    type: { kind: 'scalar', type: 'string', sql: t.type },
    systemDatasourceType: { kind: 'scalar', type: 'string', sql: t.systemDatasourceType },
    global: { kind: 'scalar', type: 'boolean', sql: t.global },
    deactivated: { kind: 'scalar', type: 'boolean', sql: t.deactivated },
    editableByDisplay: { kind: 'scalar', type: 'boolean', sql: t.editableByDisplay },
    remoteUrl: { kind: 'scalar', type: 'string', sql: t.remoteUrl },
    requestSettings: { kind: 'scalar', type: 'json', sql: t.requestSettings },
    refreshFrequency: { kind: 'scalar', type: 'integer', sql: t.refreshFrequency },
    cronExpressionParameters: { kind: 'scalar', type: 'json', sql: t.cronExpressionParameters },
    nextRefreshTime: { kind: 'scalar', type: 'epochMs', sql: t.nextRefreshAt },
    lastUpdated: { kind: 'scalar', type: 'epochMs', sql: t.lastUpdated },
    lastRefreshTime: { kind: 'scalar', type: 'epochMs', sql: t.lastRefreshedAt },
    errorCounter: { kind: 'scalar', type: 'integer', sql: t.errorCounter },
    lastError: { kind: 'scalar', type: 'string', sql: t.lastError },
    timeZone: { kind: 'scalar', type: 'string', sql: t.timeZone },
    dateFormat: { kind: 'scalar', type: 'string', sql: t.dateFormat },
    timeFormat: { kind: 'scalar', type: 'string', sql: t.timeFormat },
    keepLastXDays: { kind: 'scalar', type: 'integer', sql: t.keepLastXDays },
    keepLastXItem: { kind: 'scalar', type: 'integer', sql: t.keepLastXItem },
    quickFilterId: { kind: 'scalar', type: 'uuid', sql: t.quickFilterId },
    maxElementCount: { kind: 'scalar', type: 'integer', sql: t.maxElementCount },
    fileFolderId: { kind: 'scalar', type: 'uuid', sql: t.fileFolderId },
    capParameters: { kind: 'scalar', type: 'json', sql: t.capParameters },
    webScraperParameters: { kind: 'scalar', type: 'json', sql: t.webScraperParameters },
    tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
    dataSize: {
      kind: 'scalar',
      type: 'integer',
      sql: sql`coalesce((select ${datasourceData.size} from ${datasourceData} where ${datasourceData.datasourceId} = ${t.id}), 0)`,
    },
    createdDate: { kind: 'scalar', type: 'epochMs', sql: t.createdDate },
    teamAssignments: teamAssignmentsField('datasource', t.id),
    usageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: datasourceUsageSql(t.id) },
  }),
});

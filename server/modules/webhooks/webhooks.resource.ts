import { sql, type SQL } from 'drizzle-orm';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { datasources } from '@/server/modules/datasources/datasources.table';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { defineResource } from '@/server/query/resource';
import { actionTargetOf, webhookActionTypes, type ActionTarget } from './webhooks.schemas';
import { webhookActions, webhookApiKeys } from './webhooks.table';

/** The action types whose targets are of `target`. */
function actionTypesTargeting(target: ActionTarget): string[] {
  return webhookActionTypes.filter((type) => actionTargetOf(type) === target);
}

const oneOf = (column: SQL | typeof webhookActions.action, values: readonly string[]) =>
  sql`${column} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

/**
 * `targetName` (spec 3: computed): the targets' names, by the action's kind of target, joined by ", " in name order;
 * tags as they are; null for `_ALL` and the other targetless types. Ids are checked on every write, so each branch's
 * cast holds for the rows it reads (CASE evaluates one branch).
 */
function targetNameSql(t: typeof webhookActions): SQL {
  const uuids = sql`${t.targetIds}::uuid[]`;
  const names = (table: SQL, ids: SQL) =>
    sql`(select string_agg(x.name, ', ' order by x.name) from ${table} x where x.customer_id = ${t.customerId} and x.id = any(${ids}))`;

  return sql`case
    when ${oneOf(t.action, actionTypesTargeting('device'))} then ${names(sql`${devices}`, uuids)}
    when ${oneOf(t.action, actionTypesTargeting('deviceGroup'))} then ${names(sql`${deviceGroups}`, uuids)}
    when ${oneOf(t.action, actionTypesTargeting('datasource'))} then ${names(sql`${datasources}`, uuids)}
    when ${oneOf(t.action, actionTypesTargeting('fileFolder'))} then ${names(sql`${fileFolders}`, uuids)}
    when ${oneOf(t.action, actionTypesTargeting('campaign'))} then ${names(sql`${campaigns}`, sql`${t.targetIds}::bigint[]`)}
    when ${oneOf(t.action, actionTypesTargeting('tag'))} then nullif(array_to_string(
      ${t.targetIds} || case when ${t.actionParams} ? 'tag' then array[${t.actionParams}->>'tag'] else '{}'::text[] end, ', '), '')
    else null end`;
}

/** Searchable and selectable fields of `webhookEventAction` (spec 3 "Webhook action"). `readOnly` is added by the service (teams). */
export const webhookActionResource = defineResource({
  name: 'webhookEventAction',
  table: webhookActions,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    eventId: { kind: 'scalar', type: 'string', sql: t.eventId },
    enabled: { kind: 'scalar', type: 'boolean', sql: t.enabled },
    action: { kind: 'scalar', type: 'enum', enumValues: webhookActionTypes, sql: t.action },
    actionParams: { kind: 'scalar', type: 'json', sql: t.actionParams },
    targetData: { kind: 'scalar', type: 'json', sql: sql`jsonb_build_object('targetIds', to_jsonb(${t.targetIds}))` },
    targetId: { kind: 'scalar', type: 'string', sql: sql`${t.targetIds}[1]`, searchable: false, sortable: false },
    targetName: { kind: 'scalar', type: 'string', sql: targetNameSql(t), searchable: false, sortable: false },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    createdAt: { kind: 'scalar', type: 'epochMs', sql: t.createdAt },
    teamAssignments: teamAssignmentsField('webhookEventAction', t.id),
  }),
});

/** The fields of a webhook API key (spec 3 "Webhook API key"); never the token, which is not stored. */
export const webhookApiKeyResource = defineResource({
  name: 'webhookApiKey',
  table: webhookApiKeys,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    createdAt: { kind: 'scalar', type: 'epochMs', sql: t.createdAt },
    restricted: { kind: 'scalar', type: 'boolean', sql: t.restricted },
    scopes: { kind: 'scalar', type: 'json', sql: sql`jsonb_build_object('values', to_jsonb(${t.scopes}))` },
    // Spec 3's `teamAccessList`: the key's own team assignments (a restricted key acts within them).
    teamAccessList: {
      kind: 'scalar',
      type: 'json',
      sql: sql`jsonb_build_object('teams', coalesce((
        select jsonb_agg(jsonb_build_object('id', a.team_id, 'name', tm.name, 'readOnly', a.read_only) order by tm.name)
        from ${teamAssignments} a join ${teams} tm on tm.id = a.team_id
        where a.resource_type = 'webhookApiKey' and a.resource_id = ${t.id}::text), '[]'::jsonb))`,
    },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
  }),
});

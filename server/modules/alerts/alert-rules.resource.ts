import { sql } from 'drizzle-orm';
import { notificationChannels } from '@/server/modules/notification-channels/notification-channels.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { defineResource } from '@/server/query/resource';
import { alertRuleTypes } from './alert-rules.schemas';
import { alertRuleChannels, alertRules } from './alerts.table';

/**
 * Searchable and selectable fields of an alert rule (spec 2 "Alert rule"). The service turns a row into the wire
 * shape (`@type` from `dtype`, `evaluate` from the four counter fields); `readOnly` is added by it (teams).
 */
export const alertRuleResource = defineResource({
  name: 'alertRule',
  table: alertRules,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    dtype: { kind: 'scalar', type: 'enum', enumValues: alertRuleTypes, sql: t.type },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    enabled: { kind: 'scalar', type: 'boolean', sql: t.enabled },
    condition: { kind: 'scalar', type: 'json', sql: t.condition },
    evaluateCount: { kind: 'scalar', type: 'integer', sql: t.evaluateCount },
    violationCount: { kind: 'scalar', type: 'integer', sql: t.violationCount },
    lastEvaluationDate: { kind: 'scalar', type: 'datetime', sql: t.lastEvaluationDate },
    lastViolationDate: { kind: 'scalar', type: 'datetime', sql: t.lastViolationDate },
    delayEvaluateAfterViolationMinutes: { kind: 'scalar', type: 'integer', sql: t.delayEvaluateAfterViolationMinutes },
    scheduledEvaluateSeconds: { kind: 'scalar', type: 'integer', sql: t.scheduledEvaluateSeconds },
    workingDays: { kind: 'scalar', type: 'json', sql: t.workingDays },
    workingTime: { kind: 'scalar', type: 'json', sql: t.workingTime },
    notificationChannels: {
      kind: 'scalar',
      type: 'json',
      sql: sql`coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name) order by rc.position)
                 from ${alertRuleChannels} rc join ${notificationChannels} c on c.id = rc.notification_channel_id
                where rc.alert_rule_id = ${t.id}), '[]'::jsonb)`,
    },
    version: { kind: 'scalar', type: 'integer', sql: t.version },
    teamAccessList: {
      kind: 'scalar',
      type: 'json',
      sql: sql`jsonb_build_object('teams', coalesce((
        select jsonb_agg(jsonb_build_object('id', a.team_id, 'name', tm.name, 'readOnly', a.read_only) order by tm.name)
        from ${teamAssignments} a join ${teams} tm on tm.id = a.team_id
        where a.resource_type = 'alertRule' and a.resource_id = ${t.id}::text), '[]'::jsonb))`,
    },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    alertEmailTemplate: { kind: 'scalar', type: 'string', sql: t.alertEmailTemplate },
    evaluateSummaryEmailTemplate: { kind: 'scalar', type: 'string', sql: t.evaluateSummaryEmailTemplate },
    alertSmsTemplate: { kind: 'scalar', type: 'string', sql: t.alertSmsTemplate },
    alertFixedSmsTemplate: { kind: 'scalar', type: 'string', sql: t.alertFixedSmsTemplate },
    nextEvaluationDate: { kind: 'scalar', type: 'datetime', sql: t.nextEvaluationAt },
    createdDate: { kind: 'scalar', type: 'epochMs', sql: t.createdDate },
    teamAssignments: teamAssignmentsField('alertRule', t.id),
  }),
});

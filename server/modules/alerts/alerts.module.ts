import { sql } from 'drizzle-orm';
import { deviceAlertSources } from '@/server/modules/devices';
import { devices } from '@/server/modules/devices/devices.table';
import { queueNotifications } from '@/server/modules/notification-channels';
import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { runEvaluationTick } from './alert-evaluation';
import { countAlertRulesOf, insertAlertRule } from './alert-rules.queries';
import { registerAlertRoutes } from './alerts.handlers';
import { alertRuleChannels, alertRules, alerts } from './alerts.table';

export const alertsModule = defineModule({
  name: 'alerts',
  routes: registerAlertRoutes,
  tables: [alertRules, alertRuleChannels, alerts],
  plugs: [
    plug(teamResources, { type: 'alertRule', table: alertRules, idColumn: alertRules.id, customerIdColumn: alertRules.customerId }),
    plug(usageCounters, { resource: 'ALERT_RULE', count: countAlertRulesOf }),
    // A device's open alerts (its `alerts`: one lookup of `alert_device_open_idx`) and its folders' `alertCount`.
    plug(deviceAlertSources, {
      name: 'alerts',
      alerts: (deviceId) =>
        sql`(select jsonb_agg(jsonb_build_object('id', a.id, 'alertRuleId', a.alert_rule_id, 'alertRuleName', r.name,
                'createdAtDate', to_char(a.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by a.id)
              from ${alerts} a join ${alertRules} r on r.id = a.alert_rule_id
             where a.device_id = ${deviceId} and a.closed_at is null)`,
      // The tenant's open device alerts (`alert_customer_open_device_idx`), each device's folder path checked.
      countBelow: (folderId, customerId) =>
        sql`(select count(*) from ${alerts} a join ${devices} d on d.id = a.device_id
             where a.customer_id = ${customerId} and a.closed_at is null and a.device_id is not null
               and d.group_path @> array[${folderId}]::uuid[])`,
    }),
  ],
  jobs: ({ db, log }) => [
    {
      // Every 5 s for every instance together, as the datasources' refresh tick: the due rules, claimed with SKIP LOCKED.
      name: 'alerts.evaluate-due',
      cron: '*/5 * * * * *',
      run: async () => {
        await runEvaluationTick({ db, log, queueNotifications }, { now: new Date() });
      },
    },
  ],
  sweep: {
    alertRule: async (db, customerId) =>
      String(
        (
          await insertAlertRule(db, {
            customerId,
            // DeviceOffline, as the sweep's sample body is: a PUT of another type would be refused before its ids are read.
            type: 'DeviceOffline',
            name: `sweep ${crypto.randomUUID()}`,
            condition: {
              '@type': 'DeviceOfflineAndNoActivityForMinutes',
              inactiveMinutes: 10,
              deviceGroupId: crypto.randomUUID(),
              recursive: true,
              excludeDeviceIds: [],
              excludeDeviceGroupIds: [],
              tagFilter: null,
            },
            workingDays: null,
            workingTime: { allDay: true },
          })
        ).id,
      ),
  },
});

import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { arrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import { datasources } from '@/server/modules/datasources/datasources.table';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import type { StoredDatasourceErrorCondition, StoredDeviceOfflineCondition } from './alert-rules.schemas';
import { alertRuleChannels, alertRules, alerts, type AlertRuleRow } from './alerts.table';

/*
 * The evaluation's statements (spec 5 §5 "Evaluation"): the claim of due rules, and per rule ONE set-based statement
 * that closes the alerts of what recovered, opens one alert per newly violating device or datasource, and records the
 * evaluation on the rule (counters, dates, the next time: one round trip, not three). The partial
 * unique indexes `alert_open_device_key` / `alert_open_datasource_key` make a second open alert impossible, whatever
 * runs at once: the insert skips what is open already (`on conflict do nothing`).
 */

/** An ISO 8601 UTC text of a timestamptz (`2026-03-29T08:00:00.000Z`), the same on PostgreSQL and PGlite. */
const iso = (value: SQL | SQL.Aliased | unknown) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Claims up to `limit` rules due at `now`: their `next_evaluation_at` moves `leaseMs` ahead in the same statement, and
 * `skip locked` leaves rows another instance is claiming (or evaluating) to it. Uses the partial index on the time.
 */
export async function claimDueRules(db: Executor, input: { now: Date; limit: number; leaseMs: number }): Promise<number[]> {
  const rows = await execRows<{ id: string | number }>(
    db,
    sql`update ${alertRules} set next_evaluation_at = ${at(new Date(input.now.getTime() + input.leaseMs))}
         where id in (select id from ${alertRules}
                       where next_evaluation_at is not null and next_evaluation_at <= ${at(input.now)}
                       order by next_evaluation_at limit ${input.limit}
                       for update skip locked)
         returning id`,
  );

  return rows.map((r) => Number(r.id));
}

/** The rule, locked until commit (two evaluations of one rule serialise); undefined when it is gone. */
export async function lockRule(db: Executor, id: number): Promise<AlertRuleRow | undefined> {
  const [row] = await db.select().from(alertRules).where(eq(alertRules.id, id)).limit(1).for('update');

  return row;
}

/** The ids of the rule's channels, in the rule's order. */
export async function channelIdsOf(db: Executor, rule: { id: number; customerId: number }): Promise<number[]> {
  const rows = await db
    .select({ id: alertRuleChannels.notificationChannelId })
    .from(alertRuleChannels)
    .where(and(eq(alertRuleChannels.alertRuleId, rule.id), eq(alertRuleChannels.customerId, rule.customerId)))
    .orderBy(asc(alertRuleChannels.position));

  return rows.map((r) => r.id);
}

/** What an evaluation changed, one row per opened or closed alert. */
export type AlertChange = {
  change: 'opened' | 'closed';
  /** For a closed alert: its device is still in the rule's scope (it recovered rather than left the scope). */
  inScope: boolean;
  alertId: number;
  openedAt: string;
  subjectId: string;
  name: string;
  lastActivity: string | null;
  folderPath: string | null;
  errorCounter: number | null;
  lastError: string | null;
};

/** When the rule evaluates next: one time when something violates (its delay after a violation applies), one when not. */
type NextEvaluation = { ifViolating: Date | null; otherwise: Date | null };
type EvaluationInput = { rule: AlertRuleRow; now: Date; next: NextEvaluation };
/** What an evaluation found: the alerts it opened and closed, and how many devices or datasources violate now. */
export type Evaluation = { changes: AlertChange[]; violating: number };

const atOrNull = (date: Date | null) => (date === null ? sql`null::timestamptz` : at(date));

/**
 * The statement every evaluation runs: `ctes` define `violating` (what violates now) and the alerts closed and opened;
 * `changes` selects one row per opened or closed alert. Appended: the count of what violates (after the statement
 * every one of them has an open alert and nothing else does) and the rule's record of the evaluation.
 */
async function evaluate(db: Executor, input: EvaluationInput, ctes: SQL, changes: SQL): Promise<Evaluation> {
  const { rule, now, next } = input;
  const [row] = await execRows<{ violating: number | string; changes: RawChange[] }>(
    db,
    sql`with ${ctes},
          tally as (select count(*)::int as n from violating),
          recorded as (
            update ${alertRules} r
               set evaluate_count = r.evaluate_count + 1, last_evaluation_date = ${at(now)},
                   violation_count = r.violation_count + case when t.n > 0 then 1 else 0 end,
                   last_violation_date = case when t.n > 0 then ${at(now)} else r.last_violation_date end,
                   next_evaluation_at = case when t.n > 0 then ${atOrNull(next.ifViolating)} else ${atOrNull(next.otherwise)} end
              from tally t
             where r.id = ${rule.id} and r.customer_id = ${rule.customerId}
            returning r.id
          ), changes as (${changes})
        select (select n from tally) as violating, coalesce((select json_agg(c) from changes c), '[]'::json) as changes`,
  );

  return { changes: changesOf(row?.changes ?? []), violating: Number(row?.violating ?? 0) };
}

/** The devices of the rule's scope: the folder (recursively or not), less the exclusions, filtered by the tags. */
function deviceScope(condition: StoredDeviceOfflineCondition, customerId: number): SQL {
  const folder = sql`${condition.deviceGroupId}::uuid`;
  const tags = condition.tagFilter?.tags ?? [];
  const tagArray = arrayParam(tags, 'text');
  const tagMatch = condition.tagFilter?.logicalOperator === 'AND' ? sql`d.tags @> ${tagArray}` : sql`d.tags && ${tagArray}`;
  const parts = [
    sql`d.customer_id = ${customerId}`,
    condition.recursive ? sql`d.group_path @> array[${folder}]` : sql`d.device_group_id = ${folder}`,
    condition.excludeDeviceIds.length > 0 ? sql`not (d.id = any(${uuidArrayParam(condition.excludeDeviceIds)}))` : undefined,
    condition.excludeDeviceGroupIds.length > 0 ? sql`not (d.group_path && ${uuidArrayParam(condition.excludeDeviceGroupIds)})` : undefined,
    tags.length === 0 ? undefined : condition.tagFilter?.tagFilterType === 'EXCLUDE' ? sql`not (${tagMatch})` : tagMatch,
  ].filter((part): part is SQL => part !== undefined);

  return sql.join(parts, sql` and `);
}

/**
 * DeviceOffline: one statement. A device in scope violates when it is OFFLINE and its last activity (else its last
 * status change, else its creation) lies `inactiveMinutes` or more before `now`. Open alerts whose device no longer
 * violates are closed (`inScope` tells a recovery from a device that left the scope); each violating device without
 * an open alert gets one, with the facts of spec 2's device alert record.
 *
 * Only the violating devices are read (`device_customer_status_idx` finds the customer's OFFLINE ones; the scope
 * filters those), never the whole scope: a rule over 10 000 devices of which a few are offline reads a few rows
 * (docs/benchmarks.md "Alerts"). Devices with an open alert already are left out before the insert, so a steady
 * evaluation neither builds their folder paths nor arbitrates conflicts; `on conflict do nothing` still guards
 * evaluations running at once. The alerts to close are found with `not in` (a hashed subplan; ids are never null):
 * `not exists` over the CTE was planned as a nested loop, 200 open alerts × 200 violating devices a time.
 */
export async function evaluateDeviceRule(db: Executor, input: EvaluationInput): Promise<Evaluation> {
  const { rule, now } = input;
  const condition = rule.condition as StoredDeviceOfflineCondition;
  const cutoff = new Date(now.getTime() - condition.inactiveMinutes * 60_000);
  // The folders' names below the root, as the console shows them (the root is "All screens" there, nameless on the wire).
  const folderPath = sql`(select string_agg(g.name, ' / ' order by array_position(v.group_path, g.id))
                            from ${deviceGroups} g where g.id = any(v.group_path) and g.parent_id is not null)`;

  return evaluate(
    db,
    input,
    sql`violating as (
            select d.id, d.name, d.last_activity, d.last_device_status_change, d.device_group_id, d.group_path
              from ${devices} d
             where ${deviceScope(condition, rule.customerId)}
               and d.device_status = 'OFFLINE'
               and coalesce(d.last_activity, d.last_device_status_change, d.created_date) <= ${at(cutoff)}
          ), closed as (
            update ${alerts} a set closed_at = ${at(now)}
             where a.alert_rule_id = ${rule.id} and a.closed_at is null and a.device_id is not null
               and a.device_id not in (select v.id from violating v)
            returning a.id, a.device_id, a.opened_at, a.folder_path
          ), opened as (
            insert into ${alerts} (customer_id, alert_rule_id, kind, device_id, opened_at, device_name, device_last_activity,
                                   device_last_status_change, device_group_id, device_group_path, folder_path)
            select ${rule.customerId}, ${rule.id}, 'DEVICE', v.id, ${at(now)}, v.name, v.last_activity,
                   v.last_device_status_change, v.device_group_id, v.group_path, ${folderPath}
              from violating v
             where not exists (select 1 from ${alerts} o
                                where o.alert_rule_id = ${rule.id} and o.device_id = v.id and o.closed_at is null)
            on conflict (alert_rule_id, device_id) where closed_at is null and device_id is not null do nothing
            returning id, device_id, opened_at
          )`,
    sql`select 'opened' as change, true as in_scope, o.id as alert_id, ${iso(sql`o.opened_at`)} as opened_at,
                 o.device_id::text as subject_id, v.name, ${iso(sql`v.last_activity`)} as last_activity, ${folderPath} as folder_path,
                 null::int as error_counter, null::text as last_error
            from opened o join violating v on v.id = o.device_id
          union all
          select 'closed', (${deviceScope(condition, rule.customerId)}), c.id, ${iso(sql`c.opened_at`)},
                 c.device_id::text, d.name, ${iso(sql`d.last_activity`)}, c.folder_path, null::int, null::text
            from closed c join ${devices} d on d.id = c.device_id`,
  );
}

/**
 * DatasourceError: one statement. A datasource of the customer violates when its `error_counter` ≥ `threshold`; open
 * alerts of datasources below it are closed, each violating one without an open alert gets one.
 */
export async function evaluateDatasourceRule(db: Executor, input: EvaluationInput): Promise<Evaluation> {
  const { rule, now } = input;
  const { threshold } = rule.condition as StoredDatasourceErrorCondition;

  return evaluate(
    db,
    input,
    sql`violating as (
            select ds.id, ds.name, ds.error_counter, ds.last_error from ${datasources} ds
             where ds.customer_id = ${rule.customerId} and ds.error_counter >= ${threshold}
          ), closed as (
            update ${alerts} a set closed_at = ${at(now)}
             where a.alert_rule_id = ${rule.id} and a.closed_at is null and a.datasource_id is not null
               and a.datasource_id not in (select v.id from violating v)
            returning a.id, a.datasource_id, a.opened_at
          ), opened as (
            insert into ${alerts} (customer_id, alert_rule_id, kind, datasource_id, opened_at, datasource_name,
                                   datasource_error_counter, datasource_last_error)
            select ${rule.customerId}, ${rule.id}, 'DATASOURCE', v.id, ${at(now)}, v.name, v.error_counter, v.last_error
              from violating v
            on conflict (alert_rule_id, datasource_id) where closed_at is null and datasource_id is not null do nothing
            returning id, datasource_id, opened_at
          )`,
    sql`select 'opened' as change, true as in_scope, o.id as alert_id, ${iso(sql`o.opened_at`)} as opened_at,
                 o.datasource_id::text as subject_id, v.name, null::text as last_activity, null::text as folder_path,
                 v.error_counter, v.last_error
            from opened o join violating v on v.id = o.datasource_id
          union all
          select 'closed', true, c.id, ${iso(sql`c.opened_at`)}, c.datasource_id::text, ds.name, null::text, null::text,
                 ds.error_counter, ds.last_error
            from closed c join ${datasources} ds on ds.id = c.datasource_id`,
  );
}

type RawChange = {
  change: 'opened' | 'closed';
  in_scope: boolean;
  alert_id: string | number;
  opened_at: string;
  subject_id: string;
  name: string;
  last_activity: string | null;
  folder_path: string | null;
  error_counter: number | null;
  last_error: string | null;
};

function changesOf(rows: RawChange[]): AlertChange[] {
  return rows
    .map((r) => ({
      change: r.change,
      inScope: r.in_scope,
      alertId: Number(r.alert_id),
      openedAt: r.opened_at,
      subjectId: r.subject_id,
      name: r.name,
      lastActivity: r.last_activity,
      folderPath: r.folder_path,
      errorCounter: r.error_counter === null ? null : Number(r.error_counter),
      lastError: r.last_error,
    }))
    .sort((a, b) => a.alertId - b.alertId);
}

/** When a rule that was not evaluated (disabled, no working days, outside working time) is evaluated next. */
export async function recordNextEvaluation(db: Executor, rule: AlertRuleRow, nextEvaluationAt: Date | null): Promise<void> {
  await db
    .update(alertRules)
    .set({ nextEvaluationAt })
    .where(and(eq(alertRules.id, rule.id), eq(alertRules.customerId, rule.customerId)));
}

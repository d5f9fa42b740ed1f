import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { notificationChannels } from '@/server/modules/notification-channels/notification-channels.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { alertRuleChannels, alertRules, alerts, type AlertRuleRow } from './alerts.table';

type RuleValues = typeof alertRules.$inferInsert;

/** The rule `id` within the scope, locked until commit: updates, deletes and evaluations of one rule serialise. */
export async function lockAlertRule(db: Executor, scope: TenantScope, id: number): Promise<AlertRuleRow | undefined> {
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), scopeCondition(scope, alertRules.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function insertAlertRule(db: Executor, values: RuleValues): Promise<AlertRuleRow> {
  const [row] = await db.insert(alertRules).values(values).returning();

  return row!;
}

/** Writes the rule's new values and counts its version up. */
export async function updateAlertRule(db: Executor, row: AlertRuleRow, values: Partial<RuleValues>): Promise<void> {
  await db
    .update(alertRules)
    .set({ ...values, version: sql`${alertRules.version} + 1`, lastSavedAt: new Date() })
    .where(and(eq(alertRules.id, row.id), eq(alertRules.customerId, row.customerId)));
}

/** The rule's channels replaced by `channelIds`, in that order. */
export async function replaceRuleChannels(
  db: Executor,
  rule: { id: number; customerId: number },
  channelIds: readonly number[],
): Promise<void> {
  await db.delete(alertRuleChannels).where(eq(alertRuleChannels.alertRuleId, rule.id));
  if (channelIds.length === 0) return;
  await db
    .insert(alertRuleChannels)
    .values(channelIds.map((id, position) => ({ alertRuleId: rule.id, notificationChannelId: id, customerId: rule.customerId, position })));
}

/** Deletes the rule, its alerts and channel links (cascade) and its team assignments. */
export async function deleteAlertRule(db: Executor, row: AlertRuleRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'alertRule'),
        eq(teamAssignments.resourceId, String(row.id)),
      ),
    );
  await db.delete(alertRules).where(and(eq(alertRules.id, row.id), eq(alertRules.customerId, row.customerId)));
}

/** Closes the rule's open alerts without notifying (the rule stopped evaluating). */
export async function closeOpenAlerts(db: Executor, rule: { id: number; customerId: number }, now: Date): Promise<void> {
  await db
    .update(alerts)
    .set({ closedAt: now })
    .where(and(eq(alerts.alertRuleId, rule.id), eq(alerts.customerId, rule.customerId), isNull(alerts.closedAt)));
}

/** Which of `ids` are notification channels of the customer. */
export async function existingChannelIds(db: Executor, customerId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: notificationChannels.id })
    .from(notificationChannels)
    .where(and(eq(notificationChannels.customerId, customerId), inArray(notificationChannels.id, [...ids])));

  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are device folders of the customer. */
export async function existingDeviceGroupIds(db: Executor, customerId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, customerId), inArray(deviceGroups.id, [...ids])));

  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are devices of the customer. */
export async function existingDeviceIds(db: Executor, customerId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.customerId, customerId), inArray(devices.id, [...ids])));

  return new Set(rows.map((r) => r.id));
}

/** The customer's alert rules (the `ALERT_RULE` resource limit). */
export async function countAlertRulesOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(alertRules).where(eq(alertRules.customerId, customerId));

  return row?.n ?? 0;
}

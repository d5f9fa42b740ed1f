import type { Logger } from 'pino';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import type { AlertNotification, QueueNotifications } from './alert-notifications';
import * as q from './alert-evaluation.queries';
import type { AlertChange } from './alert-evaluation.queries';
import { renderTexts } from './alert-templates';
import type { AlertRuleRow } from './alerts.table';
import { isWorkingTime, nextWorkingInstant, type WorkingSchedule } from './working-time';

/*
 * Evaluation (spec 5 §5): each rule has `next_evaluation_at`; a tick every 5 s claims the due rules (SKIP LOCKED and a
 * lease, as the datasources' refreshes) and evaluates each in ONE transaction: the rule locked, working days and time
 * read in its zone, one set-based statement that also writes the counters and the next time
 * (alert-evaluation.queries.ts), the notifications queued. `now` is a parameter everywhere, so tests drive the clock.
 */

export type EvaluationDeps = {
  db: Executor;
  /** The deliveries' entry (notification-channels `queueNotifications`), called inside the evaluation's transaction. */
  queueNotifications: QueueNotifications;
  log?: Pick<Logger, 'error'>;
};

export type EvaluationOutcome =
  | { status: 'gone' | 'idle' | 'outsideWorkingTime'; nextEvaluationAt: Date | null }
  | { status: 'evaluated'; nextEvaluationAt: Date | null; opened: number; closed: number; violating: number };

/** How long a claimed rule is left to its instance: an evaluation lost with it is taken again after this. */
const EVALUATION_LEASE_MS = 120_000;
/** Rules one tick claims; the rest wait for the next tick (every 5 s) or another instance. */
const TICK_BATCH = 200;
/** Rules a tick evaluates at once, each on a connection of its own (the pool has 10). */
const EVALUATION_LANES = 4;

const scheduleOf = (rule: AlertRuleRow): WorkingSchedule => ({ workingDays: rule.workingDays, workingTime: rule.workingTime });

/** Whether the rule evaluates at all: enabled and with working days (null working days never evaluate, spec 1). */
const isEvaluating = (rule: Pick<AlertRuleRow, 'enabled' | 'workingDays'>): boolean => rule.enabled && rule.workingDays !== null;

/**
 * When a rule evaluates next after `from`: the first working instant at or after it, or null when the rule does not
 * evaluate or has no working day.
 */
export function nextEvaluationAfter(rule: Pick<AlertRuleRow, 'enabled' | 'workingDays' | 'workingTime'>, from: Date): Date | null {
  if (!isEvaluating(rule)) return null;
  const next = nextWorkingInstant({ workingDays: rule.workingDays, workingTime: rule.workingTime }, from.getTime());

  return next === null ? null : new Date(next);
}

/** Evaluates one rule at `now` in one transaction (whether or not it is due: the tick decides that). */
export function evaluateRule(deps: EvaluationDeps, input: { ruleId: number; now: Date }): Promise<EvaluationOutcome> {
  const { now } = input;

  return withTransaction(deps.db, async (tx) => {
    const rule = await q.lockRule(tx, input.ruleId);
    if (!rule) return { status: 'gone', nextEvaluationAt: null };
    if (!isEvaluating(rule)) {
      await q.recordNextEvaluation(tx, rule, null);

      return { status: 'idle', nextEvaluationAt: null };
    }
    // Outside working hours nothing is evaluated, so nothing is opened, closed or sent.
    if (!isWorkingTime(scheduleOf(rule), now.getTime())) {
      const nextEvaluationAt = nextEvaluationAfter(rule, now);
      await q.recordNextEvaluation(tx, rule, nextEvaluationAt);

      return { status: 'outsideWorkingTime', nextEvaluationAt };
    }
    // After a violation the rule waits `delayEvaluateAfterViolationMinutes` (when longer than its period); the
    // statement picks one of the two times by what it finds, and records it with the counters.
    const periodMs = rule.scheduledEvaluateSeconds * 1_000;
    const afterViolationMs = Math.max(periodMs, rule.delayEvaluateAfterViolationMinutes * 60_000);
    const otherwise = nextEvaluationAfter(rule, new Date(now.getTime() + periodMs));
    const ifViolating = afterViolationMs === periodMs ? otherwise : nextEvaluationAfter(rule, new Date(now.getTime() + afterViolationMs));
    const evaluation = { rule, now, next: { ifViolating, otherwise } };
    const { changes, violating } =
      rule.type === 'DeviceOffline' ? await q.evaluateDeviceRule(tx, evaluation) : await q.evaluateDatasourceRule(tx, evaluation);
    await notify(tx, deps, rule, changes, now);
    const nextEvaluationAt = violating > 0 ? ifViolating : otherwise;

    return {
      status: 'evaluated',
      nextEvaluationAt,
      opened: changes.filter((c) => c.change === 'opened').length,
      closed: changes.filter((c) => c.change === 'closed').length,
      violating,
    };
  });
}

/**
 * One tick: claims the rules due at `now` and evaluates each in its own transaction, `EVALUATION_LANES` at a time (a
 * rule's evaluation is a handful of short statements, so its time is mostly round trips; lanes overlap them). Answers
 * how many it evaluated.
 */
export async function runEvaluationTick(deps: EvaluationDeps, input: { now: Date }): Promise<number> {
  const ids = await q.claimDueRules(deps.db, { now: input.now, limit: TICK_BATCH, leaseMs: EVALUATION_LEASE_MS });
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < ids.length) {
      const ruleId = ids[next++]!;
      try {
        await evaluateRule(deps, { ruleId, now: input.now });
        done += 1;
      } catch (err) {
        // The lease runs out and a later tick takes the rule again; the other rules go on.
        deps.log?.error({ err, alertRuleId: ruleId }, 'alert rule evaluation failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EVALUATION_LANES, ids.length) }, lane));

  return done;
}

/**
 * One notification per opened alert and per alert closed by a recovery. An alert closed because its device left the
 * rule's scope (moved, excluded, tags changed) is closed without one: nothing recovered.
 */
async function notify(db: Executor, deps: EvaluationDeps, rule: AlertRuleRow, changes: AlertChange[], now: Date): Promise<void> {
  const told = changes.filter((c) => c.change === 'opened' || c.inScope);
  if (told.length === 0) return;
  const channelIds = await q.channelIdsOf(db, rule);
  if (channelIds.length === 0) return;
  const notifications = told.map((change) => {
    const notification = notificationOf(rule, change, now);
    const texts = renderTexts({ templates: rule, notification, since: change.openedAt, zone: rule.workingTime.timeZone ?? 'UTC' });

    return texts ? { ...notification, texts } : notification;
  });
  // All of them at once: a thousand screens going dark are queued in a few statements, not two each.
  await deps.queueNotifications(db, { customerId: rule.customerId, channelIds, notifications });
}

function notificationOf(rule: AlertRuleRow, change: AlertChange, now: Date): AlertNotification {
  const isOpened = change.change === 'opened';
  const data: AlertNotification['data'] = {
    alertId: change.alertId,
    alertRuleId: rule.id,
    alertRuleName: rule.name,
    customerId: rule.customerId,
  };
  if (rule.type === 'DeviceOffline')
    return {
      type: isOpened ? 'alert.device.offline' : 'alert.device.online',
      timestamp: now.toISOString(),
      data: {
        ...data,
        device: { id: change.subjectId, name: change.name, lastActivity: change.lastActivity, folderPath: change.folderPath },
      },
    };

  return {
    type: isOpened ? 'alert.datasource.error' : 'alert.datasource.fixed',
    timestamp: now.toISOString(),
    data: {
      ...data,
      datasource: { id: change.subjectId, name: change.name, errorCounter: change.errorCounter ?? 0, lastError: change.lastError },
    },
  };
}

import type { Logger } from 'pino';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { AppError } from '@/server/errors';
import type { BlobStore } from '@/server/storage';
import { applyAction, paramsOf, type EffectOutcome } from './webhook-effects';
import * as q from './webhooks.queries';
import type { ExecutionActor, WebhookExecutionRow } from './webhooks.table';

/*
 * Runs queued executions (spec 5 §4; DECISIONS §7). The execution rows are the durable queue: claimed with a lease
 * (SKIP LOCKED, so the executors of several instances share them), each run in ONE transaction that locks the row,
 * applies the action's effect and marks the row finished. A crash before that commit undoes the effect with it and
 * the lease running out hands the row to the next claim; a commit makes any later claim find it finished. So every
 * accepted trigger runs, and its effect is applied once. An effect's refusal (a deleted target, a bad parameter) is a
 * FAILED execution with the reason; an unexpected error is retried after the lease, three times at most.
 */

/** How long a claimed execution belongs to its executor. */
export const EXECUTION_LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 3;
const DEFAULT_CONCURRENCY = 8;

export type ExecutorDeps = {
  db: Database;
  config: Config;
  log: Logger;
  blobStore: () => Promise<BlobStore>;
  concurrency?: number;
};

export type WebhookExecutor = {
  /** Claims and runs what is due until nothing is; answers how many executions it ran. */
  drain: () => Promise<number>;
  /** Starts a drain unless one runs (then that one looks again when it ends). */
  wake: () => void;
  stop: () => void;
};

/** The executors of this process, woken by each accepted trigger. */
const executors = new Set<WebhookExecutor>();

/** Wakes this process's executors (after a trigger's execution row is committed). */
export function wakeWebhookExecutors(): void {
  for (const executor of executors) executor.wake();
}

export function createWebhookExecutor(deps: ExecutorDeps): WebhookExecutor {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  let draining: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  const drainOnce = async (): Promise<number> => {
    let ran = 0;
    for (;;) {
      const ids = await q.claimDueExecutions(deps.db, { limit: concurrency, leaseMs: EXECUTION_LEASE_MS });
      if (ids.length === 0) return ran;
      await Promise.all(ids.map((id) => runExecution(deps, id)));
      ran += ids.length;
      if (stopped) return ran;
    }
  };

  const executor: WebhookExecutor = {
    drain() {
      if (draining) {
        again = true;

        return draining;
      }
      draining = (async () => {
        let ran = 0;
        try {
          do {
            again = false;
            ran += await drainOnce();
          } while (again && !stopped);
        } finally {
          draining = undefined;
        }

        return ran;
      })();

      return draining;
    },
    wake() {
      if (stopped) return;
      executor.drain().catch((err: unknown) => deps.log.error({ err }, 'webhook executions could not be claimed'));
    },
    stop() {
      stopped = true;
      executors.delete(executor);
    },
  };
  executors.add(executor);

  return executor;
}

/** Runs one claimed execution to its outcome; never throws. */
export async function runExecution(deps: ExecutorDeps, id: string): Promise<void> {
  try {
    await withTransaction(deps.db, async (tx) => {
      const execution = await q.lockUnfinishedExecution(tx, id);
      if (!execution) return;
      const outcome = await effectOf(deps, tx as unknown as Database, execution);
      await q.finishExecution(tx, { id, outcome: 'SUCCEEDED', detail: outcome.detail ?? null, affected: outcome.affected });
    });
  } catch (err) {
    await recordFailure(deps, id, err).catch((failure: unknown) =>
      deps.log.error({ err: failure, executionId: id }, 'webhook execution failure not recorded'),
    );
  }
}

/** The action's effect, in the execution's transaction (`tx`), acting as the key that triggered it. */
async function effectOf(deps: ExecutorDeps, tx: Database, execution: WebhookExecutionRow): Promise<EffectOutcome> {
  const action = await q.findAction(tx, { id: execution.actionId, customerId: execution.customerId });
  if (!action) throw new ExecutionRefused('The webhook action was deleted');
  let actor = execution.actor;
  if (actor.kind === 'apiKey') {
    // The key as it is now: revoked keys run nothing, and `restricted` may have changed since the trigger.
    const key = await q.findApiKey(tx, { id: actor.apiKeyId, customerId: execution.customerId });
    if (!key) throw new ExecutionRefused('The webhook API key was revoked before the action ran');
    actor = { ...actor, restricted: key.restricted };
  }
  await q.markExecutionStarted(tx, execution.id);
  const ctx = await executionContext(deps, tx, execution, actor);

  return applyAction(ctx, action, paramsOf(action, execution.payload));
}

async function executionContext(
  deps: ExecutorDeps,
  db: Database,
  execution: WebhookExecutionRow,
  actor: ExecutionActor,
): Promise<ServiceContext<ExecutionActor>> {
  return {
    db,
    config: deps.config,
    storage: await deps.blobStore(),
    actor,
    scope: customerScope(execution.customerId),
    requestId: `webhook-execution:${execution.id}`,
    log: deps.log,
    proof: {},
  };
}

/** A refusal that is the execution's outcome, not an error of the service. */
class ExecutionRefused extends Error {}

/**
 * A refusal (a typed error of a verb, a deleted action or target) finishes the execution FAILED with its message; an
 * unexpected error leaves it to be claimed again when its lease ends, until its third attempt.
 */
async function recordFailure(deps: ExecutorDeps, id: string, err: unknown): Promise<void> {
  const refused = err instanceof ExecutionRefused || (err instanceof AppError && err.status < 500);
  await withTransaction(deps.db, async (tx) => {
    const execution = await q.lockUnfinishedExecution(tx, id);
    if (!execution) return;
    if (!refused && execution.attempts < MAX_ATTEMPTS) {
      deps.log.error({ err, executionId: id, attempt: execution.attempts }, 'webhook execution failed; it is retried');

      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    await q.finishExecution(tx, {
      id,
      outcome: 'FAILED',
      detail: refused ? message : `Failed after ${execution.attempts} attempts: ${message}`,
      affected: null,
    });
  });
}

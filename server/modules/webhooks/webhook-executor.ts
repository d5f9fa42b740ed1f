import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import type { Config } from '@/server/config';
import type { Database, Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { AppError } from '@/server/errors';
import type { BlobStore } from '@/server/storage';
import { discardDownloadedFile, downloadFileForFolder, storeDownloadedFile } from '@/server/modules/uploads';
import type { OutboundClient } from '@/server/outbound';
import { applyAction, optionalText, paramsOf, text } from './webhook-effects';
import * as q from './webhooks.queries';
import { actionFamilyOf } from './webhooks.schemas';
import type { ExecutionActor, WebhookActionRow, WebhookExecutionRow } from './webhooks.table';

/*
 * Runs queued executions (spec 5 §4; DECISIONS §7). The execution rows are the durable queue: claimed with a lease
 * (SKIP LOCKED, so the executors of several instances share them), each run in ONE transaction that locks the row,
 * applies the action's effect and marks the row finished. A crash before that commit undoes the effect with it and
 * the lease running out hands the row to the next claim; a commit makes any later claim find it finished. So every
 * accepted trigger runs, and its effect is applied once. An effect's refusal (a deleted target, a bad parameter) is a
 * FAILED execution with the reason; an unexpected error is retried after the lease, three times at most.
 */

/** How long a claimed execution belongs to its executor. */
const EXECUTION_LEASE_MS = 60_000;
const MAX_ATTEMPTS = 3;

export type ExecutorDeps = {
  db: Database;
  config: Config;
  log: Logger;
  blobStore: () => Promise<BlobStore>;
  /** The guarded client (spec 5 §1) `UPLOAD_FILE_TO_FOLDER` fetches with. */
  outbound: OutboundClient;
  concurrency?: number;
};

export type WebhookExecutor = {
  /** Claims and runs what is due until nothing is; answers how many executions it ran. */
  drain: () => Promise<number>;
  /** Starts a drain unless one runs (then that one looks again when it ends). */
  wake: () => void;
  stop: () => void;
};

/**
 * Above this share of a short sample, the process is busy answering requests (triggers) and executions wait. With
 * triggers in groups, 1 000 a second took ~half the event loop, so at 0.5 the executions ran between them in chunks of
 * 5 (tens of ms each); at 0.25 they wait for the burst (bench:webhooks A/B at load 7-8: p99 2.5 s and 0.25 s against
 * 3.1 s and 3.3 s, the server waiting for a core half the time).
 */
const BUSY_UTILIZATION = 0.25;
const BUSY_SAMPLE_MS = 10;
/** The longest executions wait for a busy process before the next batch (they always progress). */
const BUSY_WAIT_MAX_MS = 1_000;

/**
 * Waits while this process is busy answering requests, at most BUSY_WAIT_MAX_MS: a burst of triggers is accepted
 * first (its answer waits only for the queue entry) and its executions run from the durable queue after it, instead
 * of every trigger's answer queueing behind executions for the same core (`npm run bench:webhooks`). The sample is
 * taken between batches, while no execution of this executor runs, so it measures the rest of the process.
 */
async function whileAnsweringRequests(): Promise<void> {
  const deadline = Date.now() + BUSY_WAIT_MAX_MS;
  for (;;) {
    const before = performance.eventLoopUtilization();
    await new Promise((resolve) => setTimeout(resolve, BUSY_SAMPLE_MS));
    if (performance.eventLoopUtilization(before).utilization < BUSY_UTILIZATION || Date.now() >= deadline) return;
  }
}

/**
 * How many executions run at once: half the database pool (at least 1, at most 8). Each holds a connection for its
 * whole transaction; with 8 of a pool of 10 the triggers' statements waited for the other two. The triggers' group
 * commit needs a quarter (webhook-triggers.service.ts); a quarter for the executions drained a burst's backlog at
 * ~40 a second, each waiting on its statements' round trips rather than on the CPU (`npm run bench:webhooks`).
 */
function concurrencyFor(poolSize: number): number {
  return Math.min(8, Math.max(1, Math.floor(poolSize / 2)));
}

/** The executors of this process, woken by each accepted trigger. */
const executors = new Set<WebhookExecutor>();

/** Wakes this process's executors (after a trigger's execution row is committed). */
export function wakeWebhookExecutors(): void {
  for (const executor of executors) executor.wake();
}

export function createWebhookExecutor(deps: ExecutorDeps): WebhookExecutor {
  const concurrency = deps.concurrency ?? concurrencyFor(deps.config.databasePoolSize);
  let draining: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  const drainOnce = async (): Promise<number> => {
    let ran = 0;
    for (;;) {
      await whileAnsweringRequests();
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

/**
 * Runs one claimed execution to its outcome; never throws. One transaction locks the row, reads the key and the
 * action, applies the effect and finishes the row (which records its start too: nothing outside the transaction
 * could see an earlier mark); an upload only reads in it and goes on outside (runUpload).
 */
async function runExecution(deps: ExecutorDeps, id: string): Promise<void> {
  try {
    const upload = await withTransaction(deps.db, async (tx) => {
      const run = await q.lockExecutionToRun(tx, id);
      if (!run) return undefined;
      const { execution, action } = run;
      const ctx = await executionContext(deps, tx, execution, actorOf(execution, run.keyRestricted));
      if (!action) throw new ExecutionRefused('The webhook action was deleted');
      if (action.action === 'UPLOAD_FILE_TO_FOLDER') return { ctx, execution, action };
      if (isBroadDeviceAction(action.action)) await q.withoutJit(tx);
      const outcome = await applyAction(ctx, action, paramsOf(action, execution.payload));
      await q.finishExecution(tx, { id, outcome: 'SUCCEEDED', detail: outcome.detail ?? null, affected: outcome.affected });

      return undefined;
    });
    if (upload) await runUpload(deps, { ...upload.ctx, db: deps.db }, upload.execution, upload.action);
  } catch (err) {
    await recordFailure(deps, id, err).catch((failure: unknown) =>
      deps.log.error({ err: failure, executionId: id }, 'webhook execution failure not recorded'),
    );
  }
}

/**
 * A device action over tags, folders or every device: one UPDATE of many devices with the key's team conditions per
 * row, whose estimated cost grows past PostgreSQL's JIT thresholds as the device table churns; compiling it then took
 * 0.4–1.5 s of a 30 ms statement (`npm run bench:webhooks`, docs/benchmarks.md). Its transaction runs without JIT.
 */
function isBroadDeviceAction(action: string): boolean {
  const family = actionFamilyOf(action);

  return family?.family === 'device' && family.suffix !== '';
}

/**
 * `UPLOAD_FILE_TO_FOLDER` (spec 5 §4): the download runs outside any transaction (it may take minutes), then one
 * transaction stores the file and finishes the execution; a failure removes the downloaded blob.
 */
async function runUpload(
  deps: ExecutorDeps,
  ctx: ServiceContext<ExecutionActor>,
  execution: WebhookExecutionRow,
  action: WebhookActionRow,
): Promise<void> {
  const params = paramsOf(action, execution.payload);
  await q.markExecutionStarted(deps.db, execution.id);
  const folderId = action.targetIds[0];
  if (!folderId) throw new ExecutionRefused('The action names no folder');
  const file = await downloadFileForFolder(
    ctx,
    { outbound: deps.outbound },
    { folderId, url: text(params, 'url'), name: optionalText(params, 'name') },
  );
  try {
    await withTransaction(deps.db, async (tx) => {
      if (!(await q.lockExecutionToRun(tx, execution.id))) throw new ExecutionRefused('Finished by another run meanwhile');
      const stored = await storeDownloadedFile({ ...ctx, db: tx }, file);
      await q.finishExecution(tx, {
        id: execution.id,
        outcome: 'SUCCEEDED',
        detail: `File '${stored.name}' (${stored.fileId}) added`,
        affected: 1,
      });
    });
  } catch (err) {
    await discardDownloadedFile(ctx, file);
    throw err;
  }
}

/**
 * The actor the execution runs as: the key as it is now (`keyRestricted`: revoked keys run nothing; `restricted` may
 * have changed since the trigger), or the console user.
 */
function actorOf(execution: WebhookExecutionRow, keyRestricted: boolean | undefined): ExecutionActor {
  const { actor } = execution;
  if (actor.kind !== 'apiKey') return actor;
  if (keyRestricted === undefined) throw new ExecutionRefused('The webhook API key was revoked before the action ran');

  return { ...actor, restricted: keyRestricted };
}

async function executionContext(
  deps: ExecutorDeps,
  db: Executor,
  execution: WebhookExecutionRow,
  actor: ExecutionActor,
): Promise<ServiceContext<ExecutionActor>> {
  return {
    // A transaction is a database to the verbs: `withTransaction` joins it.
    db: db as Database,
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
    const execution = (await q.lockExecutionToRun(tx, id))?.execution;
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

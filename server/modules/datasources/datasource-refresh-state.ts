import type { Logger } from 'pino';
import type { Database, Executor } from '@/server/db/client';
import { AppError } from '@/server/errors';
import type { OutboundClient, OutboundLimits } from '@/server/outbound';
import type { BlobStore } from '@/server/storage/blob-store';
import { nextRefreshAfter } from './datasource-schedule';
import * as q from './datasources.queries';
import type { DatasourceRow } from './datasources.table';

/*
 * What every refresh shares, whatever its type (documents in datasource-refresh.ts, files in datasource-file.ts):
 * its dependencies, its outcome, and how a success or a failure is written on the datasource row.
 */

/** Consecutive failures after which a datasource is deactivated (spec 3 "Datasource"). */
export const DEACTIVATE_AFTER_ERRORS = 25;

export type RefreshDeps = {
  db: Database;
  outbound: OutboundClient;
  log: Logger;
  /** The blob store FILE_FROM_URL downloads go to (opened on first use by the job; the request's own in a sync refresh). */
  blobStore?: () => Promise<BlobStore>;
  now?: () => number;
  /** Tighter timeouts than spec 5 §1's (tests of slow remotes). */
  limits?: Pick<OutboundLimits, 'connectTimeoutMs' | 'headersTimeoutMs' | 'bodyTimeoutMs'>;
};

export type RefreshOutcome = { ok: true; changed: boolean } | { ok: false; error: string; deactivated: boolean };

/** Why a refresh or a "Test" failed, in words a tenant can act on (spec 5 §1: never a 500, never a hang). */
export class RefreshFailure extends Error {}

/** A failure's words for `lastError` (spec 5 §1); internals are logged, never stored. */
export function failureMessage(err: unknown, log: Logger, id: string): string {
  if (err instanceof RefreshFailure) return err.message;
  if (err instanceof AppError) return err.message;
  log.error({ err, datasourceId: id }, 'datasource refresh failed unexpectedly');

  return 'The refresh failed because of an internal error';
}

/** A success: the error count starts again and the next refresh is scheduled from now. Call with the row locked. */
export async function recordSuccess(tx: Executor, row: DatasourceRow, at: Date): Promise<void> {
  await q.recordDatasourceState(tx, row.id, {
    lastRefreshedAt: at,
    errorCounter: 0,
    lastError: null,
    nextRefreshAt: row.deactivated ? null : nextRefreshAfter(row, at.getTime()),
  });
}

/** A failure: counted, its reason kept; at 25 in a row the datasource is deactivated. Call with the row locked. */
export async function recordFailure(tx: Executor, row: DatasourceRow, error: string, at: Date): Promise<RefreshOutcome> {
  const errorCounter = row.errorCounter + 1;
  const deactivated = row.deactivated || errorCounter >= DEACTIVATE_AFTER_ERRORS;
  await q.recordDatasourceState(tx, row.id, {
    lastRefreshedAt: at,
    errorCounter,
    lastError: error.slice(0, 2_000),
    deactivated,
    nextRefreshAt: deactivated ? null : nextRefreshAfter(row, at.getTime()),
  });

  return { ok: false, error, deactivated };
}

import { claimAttempt } from '@/server/auth/failure-limit';
import { NotFoundError, TooManyRequestsError } from '@/server/errors';
import { addressNetwork } from '@/server/http/client-address';
import type { DatasourceWriter } from './datasource-data.service';
import * as q from './datasources.queries';
import { ENTITY } from './datasources.service';

/** The counting window of anonymous writes (a minute; the limits are per minute). */
const WINDOW_SECONDS = 60;

/**
 * Counts a write without credentials before anything is read or written (server/auth/failure-limit.ts: one counter
 * per subject in the database, shared by every instance). Every write keeps its slot, refused or not: a flood costs
 * the flooder its allowance. The address is counted first, so ids that are unknown or not open to displays are
 * answered 404 without a counter of their own (a caller cannot fill the counter table with made-up ids); a
 * datasource is counted only when it takes anonymous writes. Users and devices pass: they are known and answerable.
 */
export async function countAnonymousWrite(writer: DatasourceWriter, datasourceId: string): Promise<void> {
  if (writer.kind !== 'anonymous') return;
  const { db, config } = writer;
  const { perAddress, perDatasource } = config.anonymousWritesPerMinute;
  const byAddress = await claimAttempt(db, config, [`displayWrite.address:${addressNetwork(writer.address)}`], {
    limit: perAddress,
    windowSeconds: WINDOW_SECONDS,
  });
  if (!byAddress.allowed)
    throw new TooManyRequestsError(byAddress.retryAfterSeconds, 'Too many writes without credentials from this address; try again later');
  const row = await q.findDatasourceById(db, datasourceId);
  if (!row || !row.editableByDisplay) throw new NotFoundError(ENTITY, datasourceId);
  const byDatasource = await claimAttempt(db, config, [`displayWrite.datasource:${row.id}`], {
    limit: perDatasource,
    windowSeconds: WINDOW_SECONDS,
  });
  if (!byDatasource.allowed)
    throw new TooManyRequestsError(
      byDatasource.retryAfterSeconds,
      'Too many writes without credentials to this datasource; try again later, or write with a device token',
    );
}

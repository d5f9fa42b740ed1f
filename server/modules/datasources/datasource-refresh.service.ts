import type { Config } from '@/server/config';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError } from '@/server/errors';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import { emptyDocument } from './datasource-data.service';
import { testFileDatasource } from './datasource-file';
import { fetchDocument, makeRefreshDue, refreshDatasource, RefreshFailure } from './datasource-refresh';
import { computeSystemDocument } from './datasource-system';
import * as q from './datasources.queries';
import type { Datasource, DatasourceCreate } from './datasources.schemas';
import { assertCreatable, auditDatasource, readDatasource, writableDatasource } from './datasources.service';

let shared: { allowPrivateNetwork: boolean; client: OutboundClient } | undefined;

/** The process's guarded client for datasource fetches (spec 5 §1), built once from the configuration. */
export function datasourceOutbound(config: Config): OutboundClient {
  if (!shared || shared.allowPrivateNetwork !== config.allowPrivateNetworkFetch)
    shared = {
      allowPrivateNetwork: config.allowPrivateNetworkFetch,
      client: createOutboundClient({ allowPrivateNetwork: config.allowPrivateNetworkFetch }),
    };

  return shared.client;
}

/** Why the datasource cannot be refreshed (not external, deactivated), as an error key and a sentence; undefined when it can. */
export function refreshRefusal(row: {
  sourceType: string;
  deactivated: boolean;
  name: string;
}): { key: string; message: string } | undefined {
  if (row.sourceType !== 'EXTERNAL')
    return { key: 'datasource.error.notExternal', message: `'${row.name}' is ${row.sourceType}: only external datasources are refreshed` };
  if (row.deactivated)
    return { key: 'datasource.error.deactivated', message: `'${row.name}' is deactivated: reactivate it (deactivated=false) first` };

  return undefined;
}

function assertRefreshable(row: { sourceType: string; deactivated: boolean; name: string; id: string }): void {
  const refusal = refreshRefusal(row);
  if (refusal) throw new ConflictError(refusal.key, refusal.message, { id: row.id });
}

/**
 * POST /api/datasource/refresh/{id}: `sync=true` refreshes within the request and answers the datasource (with
 * `lastError` when it failed); otherwise the refresh is due at once and the scheduler takes it within seconds.
 */
export async function refreshDatasourceNow(ctx: ServiceContext, input: { id: string; sync?: boolean }): Promise<Datasource> {
  const row = await withTransaction(ctx.db, async (tx) => {
    const found = await writableDatasource(tx, ctx, input.id);
    assertRefreshable(found);
    if (!input.sync) await makeRefreshDue(tx, found.id);

    return found;
  });
  if (input.sync)
    await refreshDatasource(
      { db: ctx.db, outbound: datasourceOutbound(ctx.config), log: ctx.log, blobStore: async () => ctx.storage },
      row.id,
    );

  return (await readDatasource(ctx.db, ctx, row.id, { visibleOnly: false }))!;
}

/**
 * DELETE /api/datasource/{id}/clearCache: forgets what the remote told last time (its validators), so the next
 * refresh fetches the whole document, and makes that refresh due now. The document itself stays until then.
 */
export async function clearDatasourceCache(ctx: ServiceContext, input: { id: string }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableDatasource(tx, ctx, input.id);
    await q.updateValidators(tx, row.id, null);
    if (row.sourceType === 'EXTERNAL' && !row.deactivated) await makeRefreshDue(tx, row.id);
    await auditDatasource(tx, ctx, row, 'update', `Cache of datasource '${row.name}' cleared`);
  });
}

export type DatasourceTestResult = { ok: true; document: unknown } | { ok: false; error: string };

/**
 * POST /api/datasource/test: what a datasource with these settings would hold now, without saving anything (the
 * console's "Test" before creating). The same checks as a create; a fetch or parse failure is an answer, not an error.
 * FILE_FROM_URL answers the file it would store (`{name, contentType, size}`) from the headers and first bytes only.
 */
export async function testDatasource(ctx: ServiceContext, input: { body: DatasourceCreate }): Promise<DatasourceTestResult> {
  const { body } = input;
  const customerId = await assertCreatable(ctx, body);
  if (body.sourceType === 'INTERNAL') return { ok: true, document: emptyDocument(body.structureType) };
  if (body.sourceType === 'SYSTEM')
    return {
      ok: true,
      document: await computeSystemDocument(ctx.db, {
        customerId,
        systemDatasourceType: body.systemDatasourceType ?? null,
        quickFilterId: body.quickFilterId ?? null,
        maxElementCount: body.maxElementCount ?? null,
      }),
    };
  if (body.type === 'FILE_FROM_URL')
    return testFileDatasource(
      { db: ctx.db, outbound: datasourceOutbound(ctx.config) },
      { customerId, remoteUrl: body.remoteUrl ?? '', name: body.name },
    );
  try {
    const fetched = await fetchDocument(datasourceOutbound(ctx.config), body, undefined, Date.now());

    return fetched.kind === 'document'
      ? { ok: true, document: fetched.document }
      : { ok: false, error: 'The server answered 304 Not Modified to a request without validators' };
  } catch (err) {
    if (err instanceof RefreshFailure) return { ok: false, error: err.message };
    throw err;
  }
}

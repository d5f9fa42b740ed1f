import type { Executor } from '@/server/db/client';
import { PayloadTooLargeError, ValidationError } from '@/server/errors';
import { announceDatasourceChange } from './datasource-changes';
import * as q from './datasources.queries';
import { MAX_DOCUMENT_BYTES, type StructureType } from './datasources.schemas';
import type { DatasourceRow, RemoteValidators } from './datasources.table';
import { documentHash, structureProblem } from './formats';

/** Whether a stored document moved: then `lastUpdated` moved too and the devices heard of it. */
export type StoreOutcome = { changed: boolean; hash: string };

/**
 * The one way a document is stored (refreshes, `PUT /data`, `set`, `merge`, calendar events): it must fit the
 * datasource's structure and 1 MiB; its hash decides whether anything changed. A change moves `lastUpdated` and is
 * announced in the same transaction (the push goes out at commit). Call with the datasource row locked.
 */
export async function storeDocument(
  tx: Executor,
  row: Pick<DatasourceRow, 'id' | 'customerId' | 'structureType'>,
  document: unknown,
  options: { validators?: RemoteValidators | null; now?: Date } = {},
): Promise<StoreOutcome> {
  const problem = structureProblem(row.structureType as StructureType, document);
  if (problem)
    throw new ValidationError(
      'datasource.error.invalidDocument',
      `The document does not fit a ${row.structureType} datasource: ${problem}`,
      { structureType: row.structureType },
    );
  const text = JSON.stringify(document);
  const size = Buffer.byteLength(text);
  if (size > MAX_DOCUMENT_BYTES)
    throw new PayloadTooLargeError(
      `The document has ${size} bytes; a datasource holds at most ${MAX_DOCUMENT_BYTES}`,
      'datasource.error.documentTooLarge',
      {
        size,
        limit: MAX_DOCUMENT_BYTES,
      },
    );
  const hash = documentHash(document);
  const stored = await q.findDocumentHash(tx, row.id);
  if (stored === hash) {
    if (options.validators !== undefined) await q.updateValidators(tx, row.id, options.validators);

    return { changed: false, hash };
  }
  await q.upsertDocument(tx, {
    datasourceId: row.id,
    customerId: row.customerId,
    document,
    hash,
    size,
    validators: options.validators ?? null,
  });
  await q.recordDatasourceState(tx, row.id, { lastUpdated: options.now ?? new Date() });
  await announceDatasourceChange(tx, { customerId: row.customerId, datasourceId: row.id });

  return { changed: true, hash };
}

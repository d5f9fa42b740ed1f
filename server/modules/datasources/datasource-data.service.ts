import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import { systemActor, type Actor } from '@/server/context/actor';
import { hasRole } from '@/server/context/roles';
import type { DeviceContext, ServiceContext } from '@/server/context/service-context';
import type { Database, Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { storeDocument } from './datasource-document';
import { computeSystemDocument } from './datasource-system';
import { countAnonymousWrite } from './datasource-write-limit';
import * as q from './datasources.queries';
import { auditDatasource, ENTITY, visibleDatasource, writableDatasource } from './datasources.service';
import type { StructureType } from './datasources.schemas';
import type { DatasourceRow } from './datasources.table';
import { documentHash, FormatError, mergePatch, setAtKeySelector } from './formats';

/** The document a datasource of this structure has before anything was stored. */
export function emptyDocument(structureType: string): unknown {
  switch (structureType as StructureType) {
    case 'KEY_VALUE':
      return {};
    case 'LIST':
      return [];
    case 'TABLE':
      return { columns: [], rows: [] };
    case 'FEED':
      return { items: [] };
    default:
      return null;
  }
}

/** What devices and the console read: a system datasource computed now, else the stored document (or the empty one). */
async function currentDocument(db: Executor, row: DatasourceRow): Promise<{ document: unknown; hash?: string }> {
  if (row.sourceType === 'SYSTEM') return { document: await computeSystemDocument(db, row) };
  const stored = await q.findDocument(db, row.id);

  return stored ? { document: stored.document, hash: stored.hash } : { document: emptyDocument(row.structureType) };
}

/**
 * GET /api/datasource/{id}/data. Documents are stored parsed (refreshes parse what they fetch), so `parseData`
 * answers the same document either way (docs/decisions.md).
 */
export async function getDatasourceData(ctx: ServiceContext, input: { id: string }): Promise<unknown> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await visibleDatasource(tx, ctx, input.id);

    return (await currentDocument(tx, row)).document;
  });
}

function assertInternal(row: DatasourceRow): void {
  if (row.sourceType !== 'INTERNAL')
    throw new ConflictError(
      'datasource.error.notInternal',
      `Only an INTERNAL datasource takes data written to it; '${row.name}' is ${row.sourceType} (its data comes from ${row.sourceType === 'EXTERNAL' ? 'its refreshes' : 'the service'})`,
      { id: row.id, sourceType: row.sourceType },
    );
}

/** PUT /api/datasource/{id}/data: replaces an internal datasource's document (it must fit the structure; at most 1 MiB). */
export async function replaceDatasourceData(ctx: ServiceContext, input: { id: string; document: unknown }): Promise<unknown> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableDatasource(tx, ctx, input.id);
    assertInternal(row);
    const outcome = await storeDocument(tx, row, input.document);
    if (outcome.changed) await auditDatasource(tx, ctx, row, 'update', `Data of datasource '${row.name}' replaced`);

    return input.document;
  });
}

/**
 * Who writes through `POST /api/display/datasource/{id}/set` and `/merge` (DECISIONS §6): a user (EDITOR or
 * higher, the datasource visible and writable for them), a device of the datasource's customer, or nobody at all
 * when the datasource is `editableByDisplay` (counted per client `address` and per datasource: countAnonymousWrite).
 */
export type DatasourceWriter =
  | { kind: 'user'; ctx: ServiceContext }
  | { kind: 'device'; ctx: DeviceContext }
  | { kind: 'anonymous'; db: Database; config: Config; log: Logger; requestId: string; address: string };

const PUBLIC_WRITER = systemActor('anonymous display write');

/** The datasource (locked) if the writer may write it, with the actor its audit entry names. */
export async function datasourceForWriter(
  tx: Executor,
  writer: DatasourceWriter,
  id: string,
): Promise<{ row: DatasourceRow; actor: Actor }> {
  if (writer.kind === 'user') {
    if (!hasRole(writer.ctx.actor.role, 'EDITOR'))
      throw new ForbiddenError('This operation needs the role EDITOR or higher', 'auth.error.roleRequired', { minimumRole: 'EDITOR' });
    const row = await writableDatasource(tx, writer.ctx, id);

    return { row, actor: writer.ctx.actor };
  }
  const row = await q.lockDatasourceById(tx, id);
  if (writer.kind === 'device') {
    const customerId = writer.ctx.device.customerId;
    if (customerId == null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
    if (!row || row.customerId !== customerId || !writer.ctx.actor) throw new NotFoundError(ENTITY, id);

    return { row, actor: writer.ctx.actor };
  }
  // Without credentials an id that is not open to displays is missing, like an unknown one (no existence oracle).
  if (!row || !row.editableByDisplay) throw new NotFoundError(ENTITY, id);

  return { row, actor: PUBLIC_WRITER };
}

async function writeWith(
  writer: DatasourceWriter,
  id: string,
  change: (document: unknown) => unknown,
  describe: (row: DatasourceRow) => string,
): Promise<unknown> {
  const db = writer.kind === 'anonymous' ? writer.db : writer.ctx.db;
  const requestId = writer.kind === 'anonymous' ? writer.requestId : writer.ctx.requestId;
  await countAnonymousWrite(writer, id);

  return withTransaction(db, async (tx) => {
    const { row, actor } = await datasourceForWriter(tx, writer, id);
    assertInternal(row);
    const written = await writeDocument(tx, {
      row,
      author: { actor, requestId },
      change: (document) => {
        try {
          return change(document);
        } catch (err) {
          if (err instanceof FormatError) throw new ValidationError('datasource.error.invalidKey', err.message, { id });
          throw err;
        }
      },
      describe: describe(row),
    });

    return written.document;
  });
}

/**
 * The read-modify-write every data write shares (`set`, `merge`, the webhook actions): with the row locked by the
 * caller, the current document (or the structure's empty one) goes through `change`, the result is stored through
 * storeDocument (structure, 1 MiB, hash, `datasourceChanged`), and a change is audited as `describe`, naming the author.
 */
export async function writeDocument(
  tx: Executor,
  input: { row: DatasourceRow; author: { actor: Actor; requestId?: string }; change: (document: unknown) => unknown; describe: string },
): Promise<{ document: unknown; changed: boolean }> {
  const { row } = input;
  const before = (await currentDocument(tx, row)).document;
  const after = input.change(before);
  // An operation that found nothing to do answers the very document it was given: nothing to store or announce.
  if (after === before) return { document: before, changed: false };
  const outcome = await storeDocument(tx, row, after);
  if (outcome.changed) await auditDatasource(tx, input.author, row, 'update', input.describe);

  return { document: after, changed: outcome.changed };
}

/** `set`: one key (a dot path or a `$` JSONPath naming one place) takes `value` (read as JSON when it is JSON, else the text). */
export function setDatasourceValue(writer: DatasourceWriter, input: { id: string; key: string; value: string }): Promise<unknown> {
  const value = parseValue(input.value);

  return writeWith(
    writer,
    input.id,
    (document) => setAtKeySelector(document ?? {}, input.key, value),
    (row) => `Datasource '${row.name}': '${input.key}' set`,
  );
}

/** `merge`: the body applied to the document as a JSON Merge Patch (RFC 7396). */
export function mergeDatasourceData(writer: DatasourceWriter, input: { id: string; patch: unknown }): Promise<unknown> {
  return writeWith(
    writer,
    input.id,
    (document) => mergePatch(document, input.patch),
    (row) => `Datasource '${row.name}': data merged`,
  );
}

/** A query value: JSON when it parses as JSON (numbers, booleans, objects), else the text itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * GET /api/display/datasource/{id}: a datasource of the device's customer, with its hash as ETag. The stored hash
 * is read first, so a device whose copy is current (`If-None-Match`) gets its 304 without the document being read.
 */
export async function readDatasourceForDevice(
  ctx: DeviceContext,
  input: { id: string; ifNoneMatch?: string },
): Promise<{ notModified: true; etag: string } | { notModified: false; etag: string; document: unknown }> {
  const customerId = ctx.device.customerId;
  const row = customerId == null ? undefined : await q.findDatasource(ctx.db, { kind: 'customer', customerId, explicit: false }, input.id);
  if (!row) throw new NotFoundError(ENTITY, input.id);
  if (row.sourceType !== 'SYSTEM') {
    const hash = await q.findDocumentHash(ctx.db, row.id);
    const etag = `"${hash ?? 'empty'}"`;
    if (etagMatches(input.ifNoneMatch, etag)) return { notModified: true, etag };
    const stored = hash === undefined ? undefined : await q.findDocument(ctx.db, row.id);

    return { notModified: false, etag, document: stored ? stored.document : emptyDocument(row.structureType) };
  }
  const document = await computeSystemDocument(ctx.db, row);
  const etag = `"${documentHash(document)}"`;

  return etagMatches(input.ifNoneMatch, etag) ? { notModified: true, etag } : { notModified: false, etag, document };
}

/** `If-None-Match` names `etag` (or is `*`); weak forms compare equal (RFC 9110 weak comparison). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;

  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');

    return tag === '*' || tag === etag;
  });
}

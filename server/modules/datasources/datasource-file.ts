import { customerScope } from '@/server/context/tenant-scope';
import { systemContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { AppError } from '@/server/errors';
import { replaceFileReference } from '@/server/modules/files';
import {
  createFileFromBlob,
  discardFileBlob,
  downloadableBytes,
  downloadedFileType,
  firstDownloadBytes,
  isDownloadFailure,
  namedFileType,
  openFileDownload,
  receiveDownload,
  remoteFileName,
  FILE_BODY_TIMEOUT_MS,
  type ReceivedFileBlob,
} from '@/server/modules/uploads';
import type { BlobStore } from '@/server/storage/blob-store';
import { storeDocument } from './datasource-document';
import {
  failureMessage,
  recordFailure,
  recordSuccess,
  RefreshFailure,
  type RefreshDeps,
  type RefreshOutcome,
} from './datasource-refresh-state';
import * as q from './datasources.queries';
import type { DatasourceRow, RemoteValidators } from './datasources.table';

/*
 * FILE_FROM_URL (spec 5 §2): the remote's body becomes a file in the datasource's folder, counted in the tenant's
 * storage, and the datasource's document names it. The body streams through the guarded client straight into blob
 * storage, capped at the tenant's free storage (spec 5 §1); a changed body becomes a new file that takes over every
 * reference of the previous one, which is then removed (datasources README, "FILE_FROM_URL").
 */

/** The job the refresh acts as: files it stores have no creator, and the audit log names it. */
const REFRESH_JOB = 'datasources.refresh';
/** While a download runs its datasource is not due again: the scheduler's 2-minute lease is too short for a large file. */
const FILE_LEASE_MS = FILE_BODY_TIMEOUT_MS + 2 * 60_000;
/** The bytes a "Test" reads to tell the type. */
const TEST_HEAD_BYTES = 64;

/** The document of a FILE_FROM_URL datasource: its current file, with what a slide widget or a player needs of it. */
type FileDocument = {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  crcCheckSum: string;
  /** Of the bytes: the next download with the same hash changes nothing. */
  sha256: string;
  /** The download path (as the FILES datasource's `url`). */
  url: string;
  /** When this file was stored (epoch ms). */
  updated: number;
};

function asFileDocument(document: unknown): FileDocument | undefined {
  const candidate = document as Partial<FileDocument> | null;

  return typeof candidate?.fileId === 'string' && typeof candidate.sha256 === 'string' ? (candidate as FileDocument) : undefined;
}

type Downloaded =
  | { kind: 'unchanged'; validators: RemoteValidators | null }
  | {
      kind: 'file';
      blob: ReceivedFileBlob;
      name: string;
      contentType: string;
      width: number | null;
      height: number | null;
      sha256: string;
      validators: RemoteValidators | null;
    };

/**
 * Fetches the remote into a new blob, outside any transaction. Unchanged (a 304, or the bytes of the current file):
 * nothing is kept. The folder and the current file are read first: without the current file the remote is fetched
 * whole and stored again whatever it holds.
 */
async function download(deps: RefreshDeps & { storage: BlobStore }, row: DatasourceRow): Promise<Downloaded> {
  const folderId = row.fileFolderId;
  if (!folderId || !(await q.findFileFolder(deps.db, row.customerId, folderId)))
    throw new RefreshFailure('The file folder of this datasource was deleted: choose another folder for its file');
  const stored = await q.findDocument(deps.db, row.id);
  const document = asFileDocument(stored?.document);
  const current = document && (await q.findFileOf(deps.db, row.customerId, document.fileId));
  const isCurrent = current !== undefined && current.fileFolderId === folderId;
  const maxBytes = await downloadableBytes(deps.db, row.customerId);
  const now = deps.now?.() ?? Date.now();
  await q.recordDatasourceState(deps.db, row.id, { nextRefreshAt: new Date(now + FILE_LEASE_MS) });
  const response = await openFileDownload(deps.outbound, {
    url: row.remoteUrl ?? '',
    validators: isCurrent ? (stored?.validators ?? undefined) : undefined,
    maxBytes,
    limits: deps.limits,
  });
  const validators = response.validators.etag || response.validators.lastModified ? response.validators : null;
  if (response.notModified) {
    if (isCurrent) return { kind: 'unchanged', validators };
    throw new RefreshFailure('The server answered 304 Not Modified to a request without validators');
  }
  const { blob, sha256 } = await receiveDownload(deps, {
    customerId: row.customerId,
    response,
    maxBytes,
    reason: `datasource ${row.id} download`,
  });
  const keep = async (): Promise<Downloaded> => {
    // Before the type check: an empty body fails there, and the current file (never empty) never has its hash.
    if (isCurrent && document?.sha256 === sha256) return { kind: 'unchanged', validators };
    const name = remoteFileName({
      contentDisposition: response.headers['content-disposition'],
      url: response.finalUrl,
      fallback: row.name,
    });
    const typed = await downloadedFileType(deps.storage, blob, { name, declaredType: response.headers['content-type'] });

    return { kind: 'file', blob, sha256, validators, ...typed };
  };
  try {
    const kept = await keep();
    if (kept.kind === 'unchanged') await discardFileBlob(deps, blob);

    return kept;
  } catch (err) {
    await discardFileBlob(deps, blob);
    throw err;
  }
}

/**
 * In one transaction with the datasource row locked: the new file in the folder (the upload's own creation path:
 * quota, tags, teams, audit), every reference of the previous file moved to it and the previous file removed
 * (`replaceFileReference`), the document naming it, the success. A failure rolls all of it back.
 */
async function keepFile(
  deps: RefreshDeps,
  row: DatasourceRow,
  downloaded: Extract<Downloaded, { kind: 'file' }>,
): Promise<RefreshOutcome | undefined> {
  return withTransaction(deps.db, async (tx) => {
    const current = await q.lockDatasourceById(tx, row.id);
    if (!current) throw new RefreshFailure('The datasource was deleted during the download');
    const folder = current.fileFolderId ? await q.findFileFolder(tx, current.customerId, current.fileFolderId) : undefined;
    if (!folder) throw new RefreshFailure('The file folder of this datasource was deleted: choose another folder for its file');
    const ctx = { ...systemContext(deps.db, REFRESH_JOB, deps.log), scope: customerScope(current.customerId), requestId: REFRESH_JOB };
    const previousId = asFileDocument((await q.findDocument(tx, current.id))?.document)?.fileId;
    const previous = previousId ? await q.findFileOf(tx, current.customerId, previousId) : undefined;
    const { blob } = downloaded;
    await createFileFromBlob(tx, ctx, {
      folder,
      blob: {
        id: blob.id,
        name: downloaded.name,
        contentType: downloaded.contentType,
        size: blob.size,
        crcCheckSum: blob.crc32,
        claimedKeys: [blob.key],
      },
      // The previous file's tags, validity and settings carry over: the file is replaced, not a new one beside it.
      params: {
        inheritParentTeams: previous === undefined,
        tags: previous?.tags ?? [],
        validFrom: previous?.validFrom ?? undefined,
        validTo: previous?.validTo ?? undefined,
        muted: previous?.muted ?? false,
        metaData: previous?.metaData ?? undefined,
        width: downloaded.width ?? undefined,
        height: downloaded.height ?? undefined,
        removeOldFile: false,
      },
      auditMessage: `File ${downloaded.name} fetched by datasource '${current.name}' (${blob.size} bytes)`,
    });
    if (previous)
      await replaceFileReference(tx, ctx, {
        fileIdToReplace: previous.id,
        sourceFileId: blob.id,
        removeOldFile: true,
        teamAssignmentMode: 'OVERWRITE',
      });
    const finishedAt = new Date(deps.now?.() ?? Date.now());
    const document: FileDocument = {
      fileId: blob.id,
      name: downloaded.name,
      contentType: downloaded.contentType,
      size: blob.size,
      width: downloaded.width,
      height: downloaded.height,
      crcCheckSum: blob.crc32,
      sha256: downloaded.sha256,
      url: `/api/storage/customer/${current.customerId}/files/${blob.id}`,
      updated: finishedAt.getTime(),
    };
    const outcome = await storeDocument(tx, current, document, { validators: downloaded.validators, now: finishedAt });
    await recordSuccess(tx, current, finishedAt);

    return { ok: true, changed: outcome.changed };
  });
}

/** Why a write of the refresh failed, in the tenant's words where the files module's own are a request's. */
function writeFailure(err: unknown): unknown {
  if (err instanceof AppError && err.key === 'resourceLimit.error.limitReached')
    return new RefreshFailure('The file does not fit in the tenant’s storage any more (other files took the room during the download)');

  return err;
}

/**
 * Refreshes a FILE_FROM_URL datasource (spec 5 §2). A failure (a refused address, a timeout, a file larger than the
 * free storage, a deleted folder) keeps the previous file and document, stores its reason and counts; the blob of a
 * failed refresh is removed at once.
 */
export async function refreshFileDatasource(deps: RefreshDeps, row: DatasourceRow): Promise<RefreshOutcome | undefined> {
  let downloaded: Downloaded | undefined;
  let storage: BlobStore | undefined;
  try {
    if (!deps.blobStore) throw new Error('FILE_FROM_URL refreshes need the blob store');
    storage = await deps.blobStore();
    downloaded = await download({ ...deps, storage }, row);
    if (downloaded.kind === 'file') return await keepFile(deps, row, downloaded);

    const { validators } = downloaded;

    return await withTransaction(deps.db, async (tx) => {
      const current = await q.lockDatasourceById(tx, row.id);
      if (!current) return undefined;
      // As a document's refresh: the validators of the last answer (none when it offered none).
      await q.updateValidators(tx, current.id, validators);
      await recordSuccess(tx, current, new Date(deps.now?.() ?? Date.now()));

      return { ok: true, changed: false };
    });
  } catch (err) {
    // Unless its row exists after all (an error after the commit): then the blob is the file's.
    if (downloaded?.kind === 'file' && storage && !(await q.findFileOf(deps.db, row.customerId, downloaded.blob.id)))
      await discardFileBlob({ ...deps, storage }, downloaded.blob);
    const error = failureMessage(writeFailure(err), deps.log, row.id);

    return withTransaction(deps.db, async (tx) => {
      const current = await q.lockDatasourceById(tx, row.id);

      return current ? recordFailure(tx, current, error, new Date(deps.now?.() ?? Date.now())) : undefined;
    });
  }
}

type FileTestResult = { ok: true; document: { name: string; contentType: string; size: number | null } } | { ok: false; error: string };

/**
 * The console's "Test" of a FILE_FROM_URL datasource: the name, type and size the file would have, from the answer's
 * headers and its first bytes (the rest is not read, nothing is stored). `size` is the declared Content-Length, null
 * when the server sends none (or compresses the body); a declared size over the free storage is refused as a refresh
 * would be.
 */
export async function testFileDatasource(
  deps: Pick<RefreshDeps, 'db' | 'outbound' | 'limits'>,
  input: { customerId: number; remoteUrl: string; name: string },
): Promise<FileTestResult> {
  try {
    const maxBytes = await downloadableBytes(deps.db, input.customerId);
    const response = await openFileDownload(deps.outbound, { url: input.remoteUrl, maxBytes, limits: deps.limits });
    if (response.notModified) return { ok: false, error: 'The server answered 304 Not Modified to a request without validators' };
    const head = await firstDownloadBytes(response.body, { count: TEST_HEAD_BYTES, maxBytes });
    const declared = response.headers['content-length'];
    const name = remoteFileName({
      contentDisposition: response.headers['content-disposition'],
      url: response.finalUrl,
      fallback: input.name,
    });
    const typed = namedFileType({ name, head, declaredType: response.headers['content-type'] });
    if (!typed)
      return {
        ok: false,
        error: `The file is not of a supported type (the server calls it ${response.headers['content-type'] ?? 'nothing'})`,
      };

    return { ok: true, document: { ...typed, size: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null } };
  } catch (err) {
    if (err instanceof RefreshFailure || isDownloadFailure(err)) return { ok: false, error: err.message };
    throw err;
  }
}

import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { databaseOf, withTransaction } from '@/server/db/transaction';
import { NotFoundError, ValidationError } from '@/server/errors';
import { resolveTargetFolder } from '@/server/modules/file-folders';
import type { OutboundClient } from '@/server/outbound';
import { discardFileBlob, type ReceivedFileBlob } from './file-blob';
import { createFileFromBlob } from './file-create';
import { downloadableBytes, downloadedFileType, downloadFailure, openFileDownload, receiveDownload } from './file-download';
import { remoteFileName, sanitizeFileName } from './remote-file-name';
import { existingFileIds } from './uploads.queries';

/*
 * The folder half of a webhook's UPLOAD_FILE_TO_FOLDER (spec 3 "Webhook action", spec 5 §4: `url` and `name`,
 * fetched by §1). Two phases, so that the download never runs inside a database transaction: `downloadFileForFolder`
 * streams the file into a new blob (outside any transaction), `storeDownloadedFile` makes it a file of the folder in
 * the caller's transaction, as an upload would, and `discardDownloadedFile` removes the blob when that failed.
 */

/** A URL longer than this is refused before anything is sent (browsers and servers stop at about 8 000 characters). */
const MAX_URL_LENGTH = 8_192;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A downloaded blob waiting to become a file of the folder (what the two later phases take). */
export type DownloadedFile = {
  customerId: number;
  folderId: string;
  blob: ReceivedFileBlob;
  name: string;
  contentType: string;
  width: number | null;
  height: number | null;
};

function isInTransaction(ctx: Pick<ServiceContext<Actor>, 'db'>): boolean {
  return databaseOf(ctx.db) !== ctx.db;
}

/** The parameters as a payload may give them (anything may arrive): a text URL, and a text name when one is given. */
function checkedInput(input: { folderId: unknown; url: unknown; name?: unknown }): { folderId: string; url: string; name?: string } {
  const { folderId, url, name } = input;
  if (typeof folderId !== 'string' || folderId === '')
    throw new ValidationError('request.error.invalid', 'Name the folder to add the file to');
  // Not a uuid: no folder has it (and the message must not quote control characters a payload sent).
  if (!UUID.test(folderId)) throw new NotFoundError('fileFolder', folderId.slice(0, 40).replace(/[^\w-]/g, '?'));
  if (typeof url !== 'string' || url.trim() === '')
    throw new ValidationError('request.error.invalid', "Give the file's address (url)", { issues: [{ path: 'url', message: 'required' }] });
  if (url.length > MAX_URL_LENGTH)
    throw new ValidationError('request.error.invalid', `The file's address is longer than ${MAX_URL_LENGTH} characters`, {
      issues: [{ path: 'url', message: 'too long' }],
    });
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw new ValidationError('request.error.invalid', "The file's name must be text", { issues: [{ path: 'name', message: 'not text' }] });

  return { folderId, url: url.trim(), name: typeof name === 'string' ? name : undefined };
}

/**
 * Phase one, outside any transaction (`ctx.db` the database): checks the folder as an upload into it would (404
 * `fileFolder.error.notFound` unknown, another tenant's or invisible to the caller's teams; 403 read-only; 409
 * `fileFolder.error.filtered`), then GETs `url` through the guarded client and streams the body into a new blob,
 * capped at the tenant's free storage. The name is `name` when it leaves something after the file-name rules, else
 * the sender's Content-Disposition filename, else the last segment of the address that answered; the type by the
 * upload's rules. A failed download is 400 `upload.error.downloadFailed` (`details.reason`) in words a tenant can
 * act on, and leaves no blob behind.
 */
export async function downloadFileForFolder(
  ctx: ServiceContext<Actor>,
  deps: { outbound: OutboundClient },
  input: { folderId: string; url: string; name?: string },
): Promise<DownloadedFile> {
  // The blob's crash-safety entry must be committed before its first byte, and a long download must hold no transaction.
  if (isInTransaction(ctx)) throw new Error('downloadFileForFolder runs outside any transaction');
  const { folderId, url, name } = checkedInput(input);
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const folder = await resolveTargetFolder(ctx.db, ctx, customerId, folderId);
  const maxBytes = await downloadableBytes(ctx.db, customerId);
  const response = await openFileDownload(deps.outbound, { url, maxBytes });
  if (response.notModified) {
    response.body.destroy();
    throw downloadFailure('The server answered 304 Not Modified to a request without validators', 'notModified');
  }
  const { blob } = await receiveDownload(ctx, { customerId, response, maxBytes, reason: `webhook download into folder ${folder.id}` });
  try {
    const given = name === undefined ? '' : sanitizeFileName(name);
    const remote = remoteFileName({
      contentDisposition: response.headers['content-disposition'],
      url: response.finalUrl,
      fallback: 'file',
    });
    const typed = await downloadedFileType(ctx.storage, blob, { name: given || remote, declaredType: response.headers['content-type'] });

    return { customerId, folderId: folder.id, blob, ...typed };
  } catch (err) {
    await discardFileBlob(ctx, blob);
    throw err;
  }
}

/**
 * Phase two, in the caller's transaction (`ctx.db`, joined): the blob becomes a file of the folder by the upload's own
 * path (`createFileFromBlob`: the storage quota — 400 `resourceLimit.error.limitReached` when other files took the
 * room meanwhile —, `used_storage_size`, the folder's teams, the audit entry naming the caller, the playback notice).
 * The folder is checked again: deleted meanwhile is 404 `fileFolder.error.notFound`.
 */
export async function storeDownloadedFile(ctx: ServiceContext<Actor>, file: DownloadedFile): Promise<{ fileId: string; name: string }> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  if (customerId !== file.customerId) throw new Error('storeDownloadedFile: the file was downloaded for another tenant');

  return withTransaction(ctx.db, async (tx) => {
    const folder = await resolveTargetFolder(tx, ctx, customerId, file.folderId);
    await createFileFromBlob(tx, ctx, {
      folder,
      blob: {
        id: file.blob.id,
        name: file.name,
        contentType: file.contentType,
        size: file.blob.size,
        crcCheckSum: file.blob.crc32,
        claimedKeys: [file.blob.key],
      },
      params: {
        inheritParentTeams: true,
        tags: [],
        muted: false,
        width: file.width ?? undefined,
        height: file.height ?? undefined,
        removeOldFile: false,
      },
      auditMessage: `File ${file.name} downloaded into the folder (${file.blob.size} bytes)`,
    });

    return { fileId: file.blob.id, name: file.name };
  });
}

/**
 * Removes the blob of a download that did not become a file (call it once the storing transaction rolled back). A
 * blob whose file row exists after all is kept; when that cannot be told (`ctx.db` an aborted transaction), the blob
 * is left to the storage clean-up job, which removes it after the upload's grace period unless a row claims it.
 */
export async function discardDownloadedFile(ctx: ServiceContext<Actor>, file: DownloadedFile): Promise<void> {
  const isStored = await existingFileIds(ctx.db, [file.blob.id]).then(
    (ids) => ids.has(file.blob.id),
    () => true,
  );
  if (!isStored) await discardFileBlob(ctx, file.blob);
}

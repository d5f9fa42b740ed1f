// The uploads module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { signedDownloadUrl } from './downloads.service';
// A file that does not arrive as an upload (datasources' FILE_FROM_URL) goes the upload's way: blob, then row.
export { discardFileBlob, type ReceivedFileBlob } from './file-blob';
export { createFileFromBlob } from './file-create';
export { namedFileType } from './content-types';
// Files fetched from a tenant's address (FILE_FROM_URL, UPLOAD_FILE_TO_FOLDER): one streaming download, its name rules.
export {
  downloadableBytes,
  downloadedFileType,
  firstDownloadBytes,
  isDownloadFailure,
  openFileDownload,
  receiveDownload,
  FILE_BODY_TIMEOUT_MS,
} from './file-download';
export { remoteFileName } from './remote-file-name';
// Webhooks' UPLOAD_FILE_TO_FOLDER: the download outside any transaction, then the file in the caller's.
export { discardDownloadedFile, downloadFileForFolder, storeDownloadedFile, type DownloadedFile } from './folder-download';

// The files module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export {
  detachFileReferences,
  detachFolderReferences,
  fileDeletionBlockers,
  fileReferences,
  folderDeletionBlockers,
  folderUsageSql,
} from './file-reference-registry';
export type { FileReferenceKind, FileWriteContext } from './file-reference-registry';
export { replaceFileReference } from './file-references';
export { insertFileRow } from './files.queries';
export { fileResource, thumbnailLocationSql } from './files.resource';
export { FILE_DEFAULT_SELECT, readFile } from './files.service';
export { folderViews } from './folder-views';

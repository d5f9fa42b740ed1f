// The folders module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export {
  assertSubtreeFoldersWritable,
  blockedForTeams,
  defineFolderTree,
  deleteFolderSubtrees,
  findWritableFolder,
  folderAccessCondition,
  folderListQuery,
  inSubtrees,
  moveFolderSubtrees,
} from './folder-tree';
export type { FolderType } from './folder-tree';
export { findRootContentGroup, findRootDeviceGroup, findRootFileFolder, insertInitialFolders } from './folders.queries';

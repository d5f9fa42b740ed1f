// The folders module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export {
  assertBatchWritable,
  assertSubtreeFoldersWritable,
  blockedForTeams,
  defineFolderItems,
  defineFolderTree,
  deleteFolderSubtrees,
  findWritableFolder,
  folderAccessCondition,
  folderListQuery,
  moveFolderSubtrees,
  uniqueSiblingName,
} from './folder-tree';
export type { FolderType } from './folder-tree';
export {
  checkFolderBatch,
  checkItemBatch,
  deleteItemsBelow,
  findFolderRow,
  findItemBelow,
  findRootContentGroup,
  findRootDeviceGroup,
  findRootFileFolder,
  folderSweep,
  insertFolderRow,
  insertInitialFolders,
  itemIdsBelow,
  lockFolderSubtree,
  moveItemsInto,
  moveItemsOutOf,
  newFolderIn,
  updateFolderRow,
} from './folders.queries';

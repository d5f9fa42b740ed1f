// The content module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { contentAssignments } from './content-assignments';
export { contentFolderItems, contentGroupAccess, contentGroupTree, findWritableContentGroup } from './content-folders';
export { contentUsageSql, contentUsages } from './content-usages';
export type { ContentUsageKind } from './content-usages';
export { clearDefaultContent } from './content.queries';
export { contentReferenceTargets } from './content-reference-targets';

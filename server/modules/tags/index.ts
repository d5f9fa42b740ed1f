// The tags module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { tagSources } from './tag-sources';
export { maxTagsTotalLength, normalizeTags, registerTags, tagVerbSql, textArray } from './tags.rules';
export type { TagVerb } from './tags.rules';

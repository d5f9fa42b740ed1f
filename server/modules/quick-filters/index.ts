// The quick-filters module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { quickFilterCondition } from './quick-filter-condition';
export { criteriaCompilers, criteriaCondition, nullTerm, term } from './quick-filter-criteria';
export type { CriteriaCompiler } from './quick-filter-criteria';
export { quickFilterUsages } from './quick-filter-usages';
export type { QuickFilterUsageKind } from './quick-filter-usages';

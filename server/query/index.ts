/** Public surface of the query language: `search`, `select`, `sort`, paging and the paged executor. */
export { parseSearch } from './search/parser';
export type { Operator, SearchNode, Term } from './search/ast';
export { compileSearch, compileSearchAst } from './search/compile';
export { buildProjection, parseSelect, selectList, selectsField } from './select';
export type { SelectItem } from './select';
export { compileSort } from './sort';
export { buildPage, MAX_PAGE_SIZE, parsePaging } from './paging';
export { findOne, findPage } from './find-page';
export type { ListInput } from './find-page';
export { aliasedTable } from './relations';
export type { AnyResource } from './relations';

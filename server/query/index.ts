/** Public surface of the query language: `search`, `select`, `sort`, paging and the paged executor. */
export { defineResource, relation } from './resource';
export type { FieldDefinition, FieldType, RelationField, ResourceDefinition, ScalarField } from './resource';
export { parseSearch } from './search/parser';
export type { Operator, SearchNode, Term, TermValue } from './search/ast';
export { compileSearch, compileSearchAst } from './search/compile';
export { buildProjection, parseSelect, selectList, selectsField, toJson } from './select';
export type { ProjectedField, Projection, SelectItem } from './select';
export { compileSort, parseSort } from './sort';
export type { CompiledSort, SortKey } from './sort';
export { buildPage, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pagingQuerySchema, parsePaging } from './paging';
export type { Page, Paging, PagingInput } from './paging';
export { countMatching, findOne, findPage } from './find-page';
export type { FindOneOptions, FindPageOptions, ListInput, QueryDatabase } from './find-page';
export { aliasedTable } from './relations';
export type { AnyResource } from './relations';
export { clearCompileCache } from './compile-cache';
export { FOLDER_PATH_SEPARATOR, folderPathField, folderPathIds, folderPathToWire } from './folder-path';

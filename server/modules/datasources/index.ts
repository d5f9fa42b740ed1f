// The datasources module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { datasourceChangeListeners } from './datasource-changes';
export { parseXmlDocument } from './formats';
export { requestRefreshOfAllDatasources, runDatasourceAction } from './datasource-actions';
export type { DatasourceActionOp } from './datasource-actions';

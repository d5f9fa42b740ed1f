// The teams module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { assignTeams, modifyTeams, parseTeamIdsParam, teamAccessListOf } from './team-assignments';
export type { TeamAccessList, TeamGrant, TeamModification } from './team-assignments';
export { teamResources } from './team-registry';
export {
  assertWritable,
  isAboveTeams,
  readOnlyColumn,
  readOnlyExpression,
  restrictedKeyAccessCondition,
  teamAccessCondition,
  teamListQuery,
} from './team-visibility';
export type { TeamReadInput } from './team-visibility';
export { findMemberships, findTeamsByIds } from './teams.queries';
export { teamAssignmentsField } from './teams.resource';

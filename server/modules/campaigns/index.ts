// The campaigns module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { campaignAiringReaders } from './campaign-airings';
export { describeAssignments } from './campaign-assignments';
export { countFileAssignments, countFolderAssignments } from './campaign-references.queries';
export type { FileAssignmentTables } from './campaign-references.queries';
export {
  campaignTargetDevicesQuery,
  campaignsPlayingQuery,
  playsAnyOf,
  targetedDeviceIds,
  targetedDevicePairs,
  targetedTimeZones,
} from './campaign-targeting.queries';
export type { PlayedItemTables } from './campaign-targeting.queries';
export { applyAssignments, assertValidityOrder, checkReferences, savedBy, teamAccessOf } from './campaign-writes';
export { findCampaignTimeRules } from './campaigns.queries';
export { assignmentRelation, channelRuleFields } from './campaigns.resource';
export { attachAssignmentLists, campaignAccess, parseCampaignId, splitSelect } from './campaigns.service';
// Webhook actions (the webhooks module's executor): ENABLE/DISABLE/CHANGE_SATURATION/CHANGE_PRIORITY_CAMPAIGN[_BY_TAGS].
export { runCampaignAction } from './campaign-actions';
export type { CampaignActionChange, CampaignActionTarget } from './campaign-actions';

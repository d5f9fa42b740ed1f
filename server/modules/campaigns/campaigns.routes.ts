import { z } from '@hono/zod-openapi';
import { customerIdParam, epochMsQuery, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import {
  TeamAccessListSchema,
  teamIdsParam,
  TeamModificationSchema,
  SELECT_TEAM_IDS_EXEMPTION,
} from '@/server/modules/teams/teams.schemas';
import {
  CampaignAiringSchema,
  CampaignCreateSchema,
  channelBodyIds,
  CampaignListQueryExtension,
  CampaignSchema,
  CampaignUpdateSchema,
  PlayerDeviceSchema,
} from './campaigns.schemas';

/** Channels and schedules (spec 2 "Campaigns, message groups, messages"): writes at version 1, reads at version 2. */

const tags = ['Campaigns'];
const campaignIdValue = (description: string) => intIdParam.openapi({ description });
const idPathValue = (name: string) => campaignIdValue('The campaign').openapi({ param: { name, in: 'path' } });
const idParams = z.object({ id: idPathValue('id') });
const campaignResponse = (description: string) => ({ description, ...json(CampaignSchema) });
const selectParam = z.string().optional().openapi({
  description:
    'Projection: `*`, `a,b`, `rel(a,b)`; the assignment lists, `teamAssignments`, `teamAccessList` and `affectedScreenCount` by name',
});

/** Every id a campaign's body may carry. */
const bodyIds = {
  ...channelBodyIds,
  'body.messageGroupAssignment.assignments[].messageGroupId': 'messageGroup',
  'body.advertiserId': 'advertiser',
  'body.playedAssetTeamAccessList.teams[].id': 'team',
} as const;

export const listCampaignsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/campaign',
    operationId: 'listCampaigns',
    tags,
    summary: 'Channels and schedules, paged',
    description:
      'Filtered, sorted and paged in one statement. Search the assignments with `campaignContentAssignments.contentId=…`, `campaignContentGroupAssignments.contentGroupId`, ' +
      '`campaignFileAssignments.fileId`, `campaignFileFolderAssignments.fileFolderId`, `campaignMessageGroupAssignments.messageGroupId`, `campaignDeviceAssignments.deviceId`, ' +
      '`campaignDeviceGroupAssignments.deviceGroupId`, and teams with `teamAssignments.team.id`. Select-only: `messageGroupAssignments`, `deviceAssignments`, `deviceGroupAssignments`, ' +
      '`contentAssignments`, `contentGroupAssignments`, `fileFolderAssignments`, `fileAssignments`, `teamAssignments` (`[{id, name}]`), `teamAccessList`, `affectedScreenCount`, and the ' +
      'objects `customer`, `creator`, `lastSavedBy`, `contentQuickFilter`, `fileQuickFilter`, `deviceQuickFilter`. `validFrom`/`validTo` are epoch ms (00:00 UTC of the day). Default order: name.',
    request: { query: ScopedListQuerySchema.extend(CampaignListQueryExtension) },
    responses: { 200: { description: 'A page of campaigns', ...json(pageOf(CampaignSchema, 'CampaignPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const campaignAiringRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/campaign/airing',
    operationId: 'campaignAiring',
    tags,
    summary: 'When channels and schedules next play',
    description:
      'For each campaign (1 to 50 ids) the earliest instant at or after `at` (default now), within 14 days, at which its time rules (validity, days and hours, date ranges) hold on at least ' +
      "one of the screens it targets, in each screen's time zone, while it has a playable item (its content or files as the player resolves them: folders, quick filters, tag and team " +
      'conditions, file validity, `skipInvalidFiles`; a message group channel: one of its enabled sub-channels with such an item, their targeting not read), and when that airing ends. ' +
      'Disabled campaigns, campaigns without screens and campaigns with nothing to play (`hasItems` false) answer null. An id the caller cannot see: 404. Console helper beyond the spec.',
    request: {
      query: z.object({
        customerId: customerIdParam,
        campaignIds: z
          .string()
          .regex(/^\d{1,15}(,\d{1,15}){0,49}$/, 'One to 50 comma-separated campaign ids')
          .openapi({ description: 'Comma-separated campaign ids (at most 50)', example: '12,15' }),
        at: epochMsQuery('From when to look (epoch ms); default now'),
      }),
    },
    responses: { 200: { description: 'One entry per id, in the order asked', ...json(z.array(CampaignAiringSchema)) } },
  },
  { resourceIds: { 'query.campaignIds': 'campaign' } },
);

export const getCampaignRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/campaign/{id}',
    operationId: 'getCampaign',
    tags,
    summary: 'One channel or schedule',
    description: 'Without `select`: every primitive field, `readOnly`, `teamAccessList` and the assignment lists.',
    request: { params: idParams, query: z.object({ customerId: customerIdParam, select: selectParam }) },
    responses: { 200: campaignResponse('The campaign') },
  },
  { resourceIds: { 'path.id': 'campaign' } },
);

export const playerDevicesRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/campaign/playerDevices',
    operationId: 'campaignPlayerDevices',
    tags,
    summary: 'The screens a campaign targets',
    description:
      "STATIC: the assigned screens; DYNAMIC: screens in an assigned folder or below (the root: all) whose tags satisfy `deviceTagCondition`, and of one of the campaign's teams when it has any; " +
      'QUICK_FILTER: the screens the device quick filter matches. Only screens the caller may see; ordered by name.',
    request: { query: z.object({ campaignId: campaignIdValue('The campaign') }) },
    responses: { 200: { description: 'The screens', ...json(z.array(PlayerDeviceSchema)) } },
  },
  { resourceIds: { 'query.campaignId': 'campaign' } },
);

export const createCampaignRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/campaign',
    operationId: 'createCampaign',
    tags,
    summary: 'Create a channel (level WIDGET) or a schedule (level TOP)',
    description:
      '`version` must be `2.0`. Required by type: CONTENT contentAssignment, contentShuffleMode; CONTENT_DYNAMIC contentGroupAssignment, orderingMode, contentShuffleMode; ' +
      'ASSETS_STATIC fileAssignment, defaultDuration, orderingMode; ASSETS_DYNAMIC fileFolderAssignment, defaultDuration, orderingMode; MESSAGE_GROUP messageGroupAssignment, contentShuffleMode; ' +
      'CONTENT_QUICK_FILTER contentQuickFilterId, orderingMode, contentShuffleMode; ASSET_QUICK_FILTER fileQuickFilterId, defaultDuration, orderingMode. A schedule is of type CONTENT and needs ' +
      'affectedDateRanges. deviceSelectionMode STATIC needs deviceAssignment, QUICK_FILTER deviceQuickFilterId. `validFrom` not after `validTo`. These rules between fields answer 400 ' +
      "`request.error.invalidCombination`. Every id must be the tenant's (404 otherwise). A team member below OWNER " +
      'names at least one of its teams (`teamAccessList` or `teamIds`).',
    request: {
      query: z.object({ customerId: customerIdParam, teamIds: teamIdsParam }),
      body: { required: true, ...json(CampaignCreateSchema) },
    },
    responses: { 201: campaignResponse('The created campaign') },
  },
  {
    resourceIds: bodyIds,
    notResourceIds: { 'query.teamIds': '`<teamId>:<readOnly>` pairs: campaigns.api.test.ts covers foreign teams on create' },
  },
);

export const updateCampaignRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'none' },
  {
    method: 'put',
    path: '/api/campaign/{id}',
    operationId: 'updateCampaign',
    tags,
    summary: 'Change a channel or schedule (also its tags)',
    description:
      'Partial (spec 1 rule 2). Assignment objects add `assignments` and remove `removeIds`; `reset*: true` clears a value; `tags` replaces the tags; `teamAccessList` replaces the teams. ' +
      '`type`, `deviceSelectionMode`, `level` and `version` are ignored. `validTo` not before `validFrom` (sent or stored; 400 `request.error.invalidCombination`). A locked campaign answers 409 `campaign.error.locked` unless the body unlocks it (`locked: false`); read-only through teams: 403.',
    request: { params: idParams, body: { required: true, ...json(CampaignUpdateSchema) } },
    responses: { 200: campaignResponse('The campaign afterwards'), ...conflictError },
  },
  {
    resourceIds: { 'path.id': 'campaign', ...bodyIds },
    notResourceIds: { 'body.resetAdvertiserId': 'a boolean flag that clears advertiserId, not an id' },
  },
);

export const deleteCampaignRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/campaign/{id}',
    operationId: 'deleteCampaign',
    tags,
    summary: 'Delete a channel or schedule',
    description: 'Deletes the campaign and its assignments only (no cascade to what it plays or where). Locked: 409.',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'path.id': 'campaign' } },
);

export const updateCampaignTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/campaign/updateTeamAssignments',
    operationId: 'updateCampaignTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a campaign',
    description: 'The teams also narrow the screens of a DYNAMIC campaign to those of the same teams.',
    request: {
      query: z.object({ customerId: customerIdParam, campaignId: campaignIdValue('The campaign') }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The campaign's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'query.campaignId': 'campaign', 'body.removeFromTeamIds[]': 'team' } },
);

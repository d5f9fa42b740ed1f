import { z } from '@hono/zod-openapi';
import { intId, resourceName, uuid } from '@/server/http/wire.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { clearable, updateBody } from '@/server/http/update-body';

/*
 * Wire shapes of teams and team assignments (spec 1 "Team assignment", spec 3 "Team").
 * No server imports: the console reuses these for forms and types.
 */

/** Kinds that can be counted with `includeTeamResourceNumber` (spec 3 "Team"), besides users. */
const countedKinds = [
  'device',
  'deviceGroup',
  'deviceContent',
  'contentGroup',
  'file',
  'fileFolder',
  'datasource',
  'campaign',
  'message',
  'messageGroup',
  'advertiser',
  'alertRule',
  'notificationChannel',
  'webhookEventAction',
  'webhookApiKey',
  'deviceInstallRule',
  'quickFilter',
  'customCredential',
  'cloudACredential',
  'cloudBTenant',
] as const;

const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const TEAM_GRANT = `${UUID_TEXT}(?::(?:true|false))?`;

/** The create parameter `teamIds` (spec 1 "Team assignment"): `<teamId>` or `<teamId>:<readOnly>`, comma-separated, spaces around each. */
export const TEAM_IDS_PATTERN = new RegExp(`^\\s*$|^\\s*${TEAM_GRANT}\\s*(?:,\\s*${TEAM_GRANT}\\s*)*$`);
/** `selectTeamIds` (spec 1 "Team-related read parameters"): team ids, comma-separated; empty entries are skipped. */
export const SELECT_TEAM_IDS_PATTERN = new RegExp(`^\\s*(?:${UUID_TEXT}\\s*)?(?:,\\s*(?:${UUID_TEXT}\\s*)?)*$`);

export const teamIdsParam = z.string().regex(TEAM_IDS_PATTERN, 'Comma-separated <teamId>:<true|false> pairs').optional().openapi({
  description: 'Teams to assign: comma-separated `<teamId>:<readOnly>` (`readOnly` true or false; a bare id is writable)',
  example: '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11:false',
});

export const selectTeamIdsParam = z
  .string()
  .regex(SELECT_TEAM_IDS_PATTERN, 'Comma-separated team ids')
  .optional()
  .openapi({ description: 'Comma-separated team ids; empty means all teams' });

/** Why the id sweep leaves `selectTeamIds` alone (route option `notResourceIds`, server/http/route.ts). */
export const SELECT_TEAM_IDS_EXEMPTION = { 'query.selectTeamIds': 'a filter: another tenant’s team selects nothing' } as const;
/** Why the id sweep leaves a create's `teamIds` alone (route option `notResourceIds`). */
export const TEAM_IDS_EXEMPTION = {
  'query.teamIds': '`<teamId>:<readOnly>` pairs: teams.api.test.ts covers foreign teams on create',
} as const;

export const teamResourceNumberKey = (type: string) => `team${type.charAt(0).toUpperCase()}${type.slice(1)}Number`;

const booleanParam = booleanQuery;

export const TeamSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    comment: z.string().optional(),
    customerId: intId.optional(),
    createdDate: z.string().optional(),
    teamUserNumber: z.number().int().optional().openapi({ description: 'Members; with `includeTeamUserNumber=true`' }),
    ...Object.fromEntries(countedKinds.map((k) => [teamResourceNumberKey(k), z.number().int().optional()])),
  })
  .openapi('Team');

const teamComment = z.string().max(4000);

export const TeamBodySchema = z
  .object({
    name: resourceName,
    comment: teamComment.nullable().optional(),
  })
  .openapi('TeamBody');

/** PUT /api/team/?teamId=: `{name, comment}`, each optional (spec 1 rule 2). */
export const TeamUpdateSchema = updateBody('TeamUpdate', { name: resourceName, comment: clearable(teamComment) });

export const TeamListQueryExtension = {
  includeTeamUserNumber: booleanParam('Adds `teamUserNumber` to each team'),
  includeTeamResourceNumber: booleanParam('Adds `team{Resource}Number` for every team-capable resource kind in use'),
};

/** The team-related read parameters of spec 1, for every list of a team-capable resource. */
export const TeamReadQueryExtension = {
  includeReadOnlyInfo: booleanParam('Adds `readOnly` (the caller may only read the item through its teams) to each item'),
  includeResourcesWithoutTeam: booleanParam('Also list resources assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

export const TeamAssignmentItemSchema = z.object({ id: z.string(), readOnly: z.boolean() }).openapi('TeamAssignmentItem');

export const TeamResourcesUpdateSchema = updateBody('TeamResourcesUpdate', {
  resourcesToAdd: z.array(z.object({ id: z.string().min(1), readOnly: z.boolean().optional() })).max(10_000),
  resourceIdsToRemove: z.array(z.string().min(1)).max(10_000),
});

/** The modify body of spec 1 "Team assignment". */
export const TeamModificationSchema = updateBody('TeamModification', {
  assignToTeams: z.array(z.object({ teamId: uuid, readOnly: z.boolean().optional().default(false) })).max(1000),
  removeFromTeamIds: z.array(uuid).max(1000),
});

/** `teamAccessList` of spec 1, with each team's name for display. */
export const TeamAccessListSchema = z
  .object({ teams: z.array(z.object({ id: z.string(), name: z.string().optional(), readOnly: z.boolean() })) })
  .openapi('TeamAccessList');

export type TeamBody = z.infer<typeof TeamBodySchema>;
export type TeamUpdate = z.infer<typeof TeamUpdateSchema>;
export type TeamResourcesUpdate = z.infer<typeof TeamResourcesUpdateSchema>;
export type TeamModification = z.infer<typeof TeamModificationSchema>;
export type Team = z.infer<typeof TeamSchema>;

/**
 * What team membership lets a user see, in the words the users and teams pages share. True to the
 * server's rule (server/modules/teams/team-visibility.ts, rule A): folders and files are assigned to a
 * team each on its own (an assigned folder does not bring its files), and root folders are everyone's.
 */
export const RESTRICTED_MEANS =
  'A restricted user sees only what is assigned to their teams (those folders, and the files assigned to the team) and nothing else; in no team, they see nothing.';

/** What a team member who is not restricted sees beside its teams' resources. */
export const MEMBER_MEANS =
  'Members who are not restricted also see everything assigned to no team, while the tenant setting "Team members can use resources without a team" is on.';

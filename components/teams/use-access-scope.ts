'use client';

import { useOwnTeams } from '@/lib/api/teams';
import { useMe } from '@/lib/api/users';

/**
 * Why a list may be empty for the signed-in user although the tenant has items: it sees only its teams'
 * (team-visibility rule A). Answers the sentence an empty state adds, naming the teams, or null for a user
 * whose teams do not narrow what it sees (OWNER, ADMIN, a user in no team who is not restricted), so an
 * empty page tells "nothing here" from "nothing you may see". `things` names the items: "screens".
 */
export function useAccessScopeNote(things: string): string | null {
  const me = useMe();
  const own = useOwnTeams();
  if (!own.ready || !me.data) return null;
  const restricted = me.data.restricted === true;
  const names = own.teams.map((t) => t.name).join(', ');
  if (restricted && own.teams.length === 0) return 'You are restricted to your teams and belong to none, so you see nothing here; ask an administrator for access.';
  if (restricted) return `You see only the ${things} and folders of your teams (${names}); ask an administrator for access.`;
  if (own.scoped) return `You see the ${things} of your teams (${names}) and those assigned to no team; ask an administrator for access to others.`;

  return null;
}

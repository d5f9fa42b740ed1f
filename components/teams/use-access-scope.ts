'use client';

import { useTranslations } from 'next-intl';
import { useOwnTeams } from '@/lib/api/teams';
import { useMe } from '@/lib/api/users';

/** The items of a list whose empty state names the teams: the `things` of `teams.scope` in the catalogue. */
export type ScopedThings = 'screens' | 'channels' | 'content' | 'media';

/**
 * Why a list may be empty for the signed-in user although the tenant has items: it sees only its teams'
 * (team-visibility rule A). Answers the sentence an empty state adds, naming the teams, or null for a user
 * whose teams do not narrow what it sees (OWNER, ADMIN, a user in no team who is not restricted), so an
 * empty page tells "nothing here" from "nothing you may see". `things` names the items: "screens".
 */
export function useAccessScopeNote(things: ScopedThings): string | null {
  const me = useMe();
  const own = useOwnTeams();
  const t = useTranslations('teams.scope');
  if (!own.ready || !me.data) return null;
  const restricted = me.data.restricted === true;
  const names = own.teams.map((team) => team.name).join(', ');
  if (restricted && own.teams.length === 0) return t('none');
  if (restricted) return t('restricted', { things, names });
  if (own.scoped) return t('scoped', { things, names });

  return null;
}

'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, type ReactNode } from 'react';
import { useOwnTeams, useTeams } from '@/lib/api/teams';

/**
 * A `teamAccessList` picker: a checkbox per team the user can see. With `defaultToOwn`, a team-scoped user
 * (below OWNER, in a team) starts with its own teams chosen, since the API refuses what names none of them
 * (`campaign.error.teamRequired`); the user may still change the choice. Used by channels, schedules and
 * sub-channels.
 */
export function TeamChoice({
  value,
  onChange,
  disabled = false,
  error,
  legend,
  hint,
  empty,
  defaultToOwn = false,
}: {
  value: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
  error?: string;
  legend?: ReactNode;
  hint?: ReactNode;
  /** What is said when the tenant has no team (none shown: the field is left out). */
  empty?: ReactNode;
  defaultToOwn?: boolean;
}) {
  const t = useTranslations('teams.choice');
  const teams = useTeams({ page: 0, size: 200, text: '' });
  const own = useOwnTeams();
  const defaulted = useRef(false);
  useEffect(() => {
    if (!defaultToOwn || defaulted.current || !own.ready) return;
    defaulted.current = true;
    if (own.scoped && value.length === 0) onChange(own.teams.map((team) => team.id));
  }, [defaultToOwn, own.ready, own.scoped, own.teams, value.length, onChange]);
  const list = teams.data?.content ?? [];
  if (teams.isSuccess && list.length === 0 && !empty) return null;

  return (
    <fieldset className="space-y-1.5" disabled={disabled} data-testid="team-choice">
      <legend className="text-sm font-medium text-zinc-800">{legend ?? t('legend')}</legend>
      {hint ? <p className="text-sm text-zinc-500">{hint}</p> : null}
      {own.scoped && !error ? <p className="text-sm text-zinc-500">{t('keepOwn')}</p> : null}
      {teams.isSuccess && list.length === 0 ? <p className="text-sm text-zinc-500">{empty}</p> : null}
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {list.map((team) => (
          <label key={team.id} className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              className="accent-brand-600"
              checked={value.includes(team.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, team.id] : value.filter((id) => id !== team.id))}
            />
            {team.name}
          </label>
        ))}
      </div>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </fieldset>
  );
}

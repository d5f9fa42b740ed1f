'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useResourceTeams, useTeams, useUpdateResourceTeams, type MediaTeamKind, type TeamModification } from '@/lib/api/teams';
import { useErrorMessage } from '@/lib/i18n/errors';

/**
 * The teams of one media folder or file, for OWNER and ADMIN (spec 1 "Team assignment"): assign it to a
 * team, read-only or not, change the flag, remove it. `canManage` false shows the teams only.
 */
export function ResourceTeamsEditor({
  type,
  resourceId,
  resourceName,
  customerId,
  canManage,
}: {
  type: MediaTeamKind;
  resourceId: string;
  resourceName: string;
  customerId: number | undefined;
  canManage: boolean;
}) {
  const assigned = useResourceTeams(type, resourceId, customerId);
  const teams = useTeams({ page: 0, size: 200, sort: 'name,asc', text: '' });
  const update = useUpdateResourceTeams(type, resourceId, customerId);
  const [teamId, setTeamId] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();
  const readOnlyId = useId();
  const t = useTranslations('teams');
  const errorMessage = useErrorMessage();

  const rows = assigned.data?.teams ?? [];
  const assignedIds = new Set(rows.map((team) => team.id));
  const available = (teams.data?.content ?? []).filter((team) => !assignedIds.has(team.id));
  const nameOf = (id: string) =>
    rows.find((team) => team.id === id)?.name ?? teams.data?.content.find((team) => team.id === id)?.name ?? id;

  async function change(modification: TeamModification, busyId: string) {
    setError(null);
    setPendingId(busyId);
    try {
      await update.mutateAsync(modification);

      return true;
    } catch (e) {
      setError(errorMessage(e));

      return false;
    } finally {
      setPendingId(null);
    }
  }

  if (assigned.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-zinc-500">
        <Spinner /> {t('resourceTeams.loading')}
      </p>
    );
  }
  if (assigned.isError)
    return <p className="text-sm text-red-700">{t('resourceTeams.loadError', { message: errorMessage(assigned.error) })}</p>;

  return (
    <div className="space-y-3" data-testid={`${type}-teams`}>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">{t('resourceTeams.none')}</p>
      ) : (
        <ul
          className="divide-y divide-zinc-100 rounded-md ring-1 ring-zinc-200"
          aria-label={t('resourceTeams.list', { name: resourceName })}
        >
          {rows.map((team) => (
            <li key={team.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <Link
                href={`/teams/${team.id}`}
                className="min-w-0 flex-1 truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline"
              >
                {nameOf(team.id)}
              </Link>
              {canManage ? (
                <>
                  <label className="inline-flex cursor-pointer items-center gap-1.5 text-zinc-600">
                    <input
                      type="checkbox"
                      className="size-4 cursor-pointer accent-brand-600"
                      checked={team.readOnly}
                      disabled={pendingId !== null}
                      onChange={(e) => void change({ assignToTeams: [{ teamId: team.id, readOnly: e.target.checked }] }, team.id)}
                      aria-label={t('resourceTeams.readOnlyFor', { team: nameOf(team.id) })}
                    />
                    {pendingId === team.id ? <Spinner /> : t('readOnly')}
                  </label>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={pendingId !== null}
                    onClick={() => void change({ removeFromTeamIds: [team.id] }, team.id)}
                    aria-label={t('resourceTeams.removeFrom', { team: nameOf(team.id) })}
                  >
                    {t('remove')}
                  </Button>
                </>
              ) : (
                <span className="text-xs text-zinc-500">{team.readOnly ? t('readOnly') : t('editable')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p className="text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      {canManage ? (
        teams.isSuccess && teams.data.totalElements === 0 ? (
          <p className="text-sm text-zinc-500">
            {t.rich('resourceTeams.noTeams', {
              link: (chunks) => (
                <Link href="/teams" className="font-medium text-brand-700 hover:underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : (
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (!teamId) return;
              void change({ assignToTeams: [{ teamId, readOnly }] }, 'new').then((ok) => {
                if (!ok) return;
                setTeamId('');
                setReadOnly(false);
              });
            }}
          >
            <label htmlFor={selectId} className="sr-only">
              {t('resourceTeams.addLabel', { kind: type })}
            </label>
            <Select
              id={selectId}
              className="w-auto min-w-0 flex-1"
              value={teamId}
              onChange={(e) => setTeamId(e.target.value)}
              disabled={!teams.isSuccess || available.length === 0}
            >
              <option value="">
                {teams.isPending
                  ? t('resourceTeams.loading')
                  : available.length
                    ? t('resourceTeams.addToTeam')
                    : t('resourceTeams.inEveryTeam')}
              </option>
              {available.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </Select>
            <label htmlFor={readOnlyId} className="inline-flex cursor-pointer items-center gap-1.5 text-sm text-zinc-600">
              <input
                id={readOnlyId}
                type="checkbox"
                className="size-4 cursor-pointer accent-brand-600"
                checked={readOnly}
                onChange={(e) => setReadOnly(e.target.checked)}
              />
              {t('readOnly')}
            </label>
            <Button type="submit" size="sm" variant="secondary" disabled={!teamId || pendingId !== null}>
              {pendingId === 'new' ? <Spinner /> : null}
              {t('resourceTeams.add')}
            </Button>
          </form>
        )
      ) : null}
    </div>
  );
}

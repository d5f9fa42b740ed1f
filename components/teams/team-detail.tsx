'use client';

import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { Avatar } from '@/components/shell/user-menu';
import { ChevronLeftIcon, FolderIcon, PhotoIcon, PlusIcon, TeamIcon, TrashIcon } from '@/components/ui/icons';
import { NoAccess } from '@/components/settings/no-access';
import { AddMembersDialog } from '@/components/teams/add-members-dialog';
import { AssignFoldersDialog } from '@/components/teams/assign-folders-dialog';
import { DeleteTeamDialog, TeamFormDialog } from '@/components/teams/team-dialogs';
import { useTeamAccess } from '@/components/teams/use-team-access';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { isCancelled } from '@/lib/api/protected';
import { useUpdateUser } from '@/lib/api/users';
import {
  TEAM_RESOURCE_KINDS,
  teamKeys,
  useTeam,
  useTeamAssignments,
  useTeamResourceNames,
  useTeamMemberUsers,
  useUpdateTeamAssignments,
  type Team,
  type TeamAssignment,
  type TeamResourceKind,
} from '@/lib/api/teams';
import type { User } from '@/lib/api/types';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

type Member = TeamAssignment & { user?: User };

function SectionHeader({ title, description, actions }: { title: string; description?: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4">
      <div>
        <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
        {description ? <p className="mt-0.5 max-w-3xl text-sm text-zinc-500">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}

export function TeamDetail({ teamId }: { teamId: string }) {
  const router = useRouter();
  const access = useTeamAccess();
  const team = useTeam(teamId, access.customerId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const t = useTranslations('teams');
  const format = useFormat();
  const errorMessage = useErrorMessage();

  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.body')}</NoAccess>;
  if (team.isPending) {
    return (
      <div className="flex items-center gap-2 py-10 text-sm text-zinc-500">
        <Spinner /> {t('detail.loading')}
      </div>
    );
  }
  if (team.isError || !team.data) {
    return (
      <div className="space-y-4">
        <BackLink />
        <Alert
          title={team.isError ? t('detail.loadError') : t('detail.notFound')}
          action={
            team.isError ? (
              <Button variant="secondary" size="sm" onClick={() => void team.refetch()}>
                {t('detail.tryAgain')}
              </Button>
            ) : null
          }
        >
          {team.isError ? errorMessage(team.error) : t('detail.notFoundBody')}
        </Alert>
      </div>
    );
  }
  const current = team.data;
  const customerId = access.customerId;

  return (
    <div className="space-y-6">
      <div>
        <BackLink />
        <div className="mt-3 flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="flex items-center gap-2.5 text-2xl font-semibold tracking-tight text-zinc-900">
              <TeamIcon className="size-6 text-zinc-400" />
              {current.name}
            </h1>
            <p className="mt-1 text-sm text-zinc-500">
              {current.comment ? `${current.comment} · ` : ''}
              {t('detail.created', { date: format.date(current.createdDate) })}
            </p>
          </div>
          {access.canManage ? (
            <div className="flex items-center gap-2">
              <Button variant="secondary" onClick={() => setEditing(true)}>
                {t('rename')}
              </Button>
              <Button variant="secondary" className="text-red-700 hover:bg-red-50" onClick={() => setDeleting(current)}>
                {t('delete')}
              </Button>
            </div>
          ) : null}
        </div>
      </div>
      {access.canManage ? (
        <>
          <TeamFormDialog open={editing} team={current} onOpenChange={setEditing} />
          <DeleteTeamDialog
            team={deleting}
            onOpenChange={(open) => (open ? undefined : setDeleting(null))}
            onDeleted={() => router.push('/teams')}
          />
        </>
      ) : null}
      {access.isManager && access.needsTenant ? (
        <Alert tone="info" title={t('detail.readOnlyView')}>
          {t('detail.readOnlyViewBody')}
        </Alert>
      ) : null}
      <MembersCard team={current} customerId={customerId} canManage={access.canManage} />
      <ResourcesCard team={current} customerId={customerId} canManage={access.canManage} />
    </div>
  );
}

function BackLink() {
  const t = useTranslations('teams');

  return (
    <Link href="/teams" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
      <ChevronLeftIcon className="size-4" />
      {t('title')}
    </Link>
  );
}

function MembersCard({ team, customerId, canManage }: { team: Team; customerId: number | undefined; canManage: boolean }) {
  const assignments = useTeamAssignments(team.id, 'user', customerId);
  const users = useTeamMemberUsers(team.id, customerId);
  const update = useUpdateTeamAssignments(team.id, 'user', customerId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const t = useTranslations('teams');
  const label = useLabel();
  const errorMessage = useErrorMessage();

  const members = useMemo<Member[]>(() => {
    const byId = new Map((users.data?.content ?? []).map((u) => [u.id, u]));
    const list = (assignments.data ?? []).map((a) => ({ ...a, user: byId.get(a.id) }));

    return list.sort((a, b) => (a.user?.name || a.user?.email || a.id).localeCompare(b.user?.name || b.user?.email || b.id));
  }, [assignments.data, users.data]);
  const memberIds = useMemo(() => new Set(members.map((m) => m.id)), [members]);

  async function setReadOnly(member: Member, readOnly: boolean) {
    setRowError(null);
    setPendingId(member.id);
    try {
      await update.mutateAsync({ resourcesToAdd: [{ id: member.id, readOnly }] });
    } catch (error) {
      setRowError(errorMessage(error));
    } finally {
      setPendingId(null);
    }
  }

  const memberName = (m: Member) => m.user?.name || m.user?.email || m.id;

  return (
    <Card className="overflow-hidden">
      <SectionHeader
        title={t('members.title')}
        description={
          <>
            {t('access.restricted')} {t('access.member')} {t('members.readOnlyMeans')}
          </>
        }
        actions={
          canManage ? (
            <Button size="sm" onClick={() => setAdding(true)}>
              <PlusIcon className="size-4" />
              {t('members.add')}
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <>
          <AddMembersDialog
            open={adding}
            onOpenChange={setAdding}
            teamId={team.id}
            teamName={team.name}
            memberIds={memberIds}
            customerId={customerId}
          />
          <ConfirmDialog
            open={removing !== null}
            onOpenChange={(open) => (open ? undefined : setRemoving(null))}
            title={t('members.removeTitle')}
            description={t.rich('members.removeBody', {
              member: removing ? memberName(removing) : '',
              team: team.name,
              strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
            })}
            confirmLabel={t('remove')}
            destructive
            onConfirm={() => update.mutateAsync({ resourceIdsToRemove: removing ? [removing.id] : [] })}
          />
        </>
      ) : null}
      {rowError ? <Alert className="m-4">{rowError}</Alert> : null}
      {assignments.isError ? (
        <LoadError className="m-4" title={t('members.loadError')} error={assignments.error} onRetry={() => void assignments.refetch()} />
      ) : assignments.isPending ? (
        <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
          <Spinner /> {t('members.loading')}
        </p>
      ) : members.length === 0 ? (
        <div className="px-5 py-10 text-center" data-testid="members-empty">
          <p className="text-sm font-medium text-zinc-900">{t('members.emptyTitle')}</p>
          <p className="mt-1 text-sm text-zinc-500">{canManage ? t('members.emptyManage') : t('members.emptyView')}</p>
        </div>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label={t('members.title')}>
            <thead className="border-b border-zinc-200 bg-zinc-50/80">
              <tr>
                {(['name', 'role', 'access', 'readOnly'] as const).map((column) => (
                  <th key={column} scope="col" className="px-3 py-2.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
                    {t(`members.columns.${column}`)}
                  </th>
                ))}
                {canManage ? (
                  <th scope="col" className="w-12">
                    <span className="sr-only">{t('actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {members.map((member) => (
                <tr key={member.id} className="hover:bg-zinc-50/60">
                  <td className="px-3 py-3">
                    {/* The e-mail under the name, not in a column of its own: the table fits 1024 wide without scrolling. */}
                    <div className="flex min-w-0 items-center gap-3">
                      <Avatar name={memberName(member)} />
                      <div className="min-w-0">
                        <p className="font-medium text-zinc-900">
                          {member.user?.name || <span className="text-zinc-400">{member.user ? t('members.noName') : member.id}</span>}
                        </p>
                        {member.user?.email ? (
                          <p className="max-w-36 truncate text-xs text-zinc-500" title={member.user.email}>
                            {member.user.email}
                          </p>
                        ) : null}
                      </div>
                    </div>
                  </td>
                  <td className="px-3 py-3">{member.user ? <Badge>{label('role', member.user.role)}</Badge> : '—'}</td>
                  <td className="px-3 py-3">
                    {member.user ? <RestrictedCell teamId={team.id} user={member.user} canManage={canManage} /> : '—'}
                  </td>
                  <td className="px-3 py-3">
                    {canManage ? (
                      <label className="inline-flex cursor-pointer items-center gap-2 text-zinc-700">
                        <input
                          type="checkbox"
                          className="size-4 cursor-pointer accent-brand-600"
                          checked={member.readOnly}
                          disabled={pendingId === member.id}
                          onChange={(e) => void setReadOnly(member, e.target.checked)}
                          aria-label={t('readOnlyOf', { name: memberName(member) })}
                        />
                        {pendingId === member.id ? <Spinner /> : member.readOnly ? t('readOnly') : t('editable')}
                      </label>
                    ) : member.readOnly ? (
                      <Badge>{t('readOnly')}</Badge>
                    ) : (
                      <span className="text-zinc-500">{t('editable')}</span>
                    )}
                  </td>
                  {canManage ? (
                    <td className="px-3 py-3 text-right">
                      {/* An icon: the word ("Entfernen") widened the table past 1024 in German; the name says it. */}
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setRemoving(member)}
                        aria-label={t('removeName', { name: memberName(member) })}
                        title={t('remove')}
                      >
                        <TrashIcon className="size-4" />
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** Whether the member sees only its teams' resources; a manager switches it here (a protected change of the user). */
function RestrictedCell({ teamId, user, canManage }: { teamId: string; user: User; canManage: boolean }) {
  const update = useUpdateUser();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const t = useTranslations('teams');
  const errorMessage = useErrorMessage();
  const restricted = Boolean(user.restricted);
  // What membership lets the user see (server/modules/teams/team-visibility.ts, rule A).
  const means = restricted ? t('access.restricted') : t('access.member');
  if (!canManage) {
    return (
      <span className="text-zinc-600" title={means}>
        {restricted ? t('members.onlyTeams') : t('members.teamsAndUnassigned')}
      </span>
    );
  }

  return (
    <div>
      <label className="inline-flex cursor-pointer items-center gap-2 text-zinc-700" title={means}>
        <input
          type="checkbox"
          className="size-4 cursor-pointer accent-brand-600"
          checked={restricted}
          disabled={update.isPending}
          onChange={(e) => {
            setError(null);
            update
              .mutateAsync({ email: user.email, changes: { restricted: e.target.checked } })
              .then(() => queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) }))
              .catch((err: unknown) => {
                if (!isCancelled(err)) setError(errorMessage(err));
              });
          }}
          aria-label={t('members.restrictedOf', { name: user.name || user.email })}
        />
        {update.isPending ? <Spinner /> : restricted ? t('members.restricted') : t('members.teamsAndUnassigned')}
      </label>
      {error ? <p className="mt-1 text-xs text-red-700">{error}</p> : null}
    </div>
  );
}

function ResourcesCard({ team, customerId, canManage }: { team: Team; customerId: number | undefined; canManage: boolean }) {
  const [assigning, setAssigning] = useState(false);
  const folders = useTeamAssignments(team.id, 'fileFolder', customerId, (team.teamFileFolderNumber ?? 0) > 0 || assigning);
  const assignedFolderIds = useMemo(() => new Set((folders.data ?? []).map((a) => a.id)), [folders.data]);
  const t = useTranslations('teams');

  return (
    <Card className="overflow-hidden">
      <SectionHeader
        title={t('resources.title')}
        description={t('resources.description')}
        actions={
          canManage ? (
            <Button size="sm" onClick={() => setAssigning(true)}>
              <PlusIcon className="size-4" />
              {t('resources.assign')}
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <AssignFoldersDialog
          open={assigning}
          onOpenChange={setAssigning}
          teamId={team.id}
          teamName={team.name}
          assignedIds={assignedFolderIds}
          customerId={customerId}
        />
      ) : null}
      <div className="divide-y divide-zinc-100">
        <ResourceKindRow
          teamId={team.id}
          type="fileFolder"
          count={team.teamFileFolderNumber}
          customerId={customerId}
          canManage={canManage}
        />
        <ResourceKindRow teamId={team.id} type="file" count={team.teamFileNumber} customerId={customerId} canManage={canManage} />
        {TEAM_RESOURCE_KINDS.filter((kind) => kind.type !== 'fileFolder').map((kind) => (
          <ResourceKindRow
            key={kind.type}
            teamId={team.id}
            type={kind.type}
            count={team[kind.countKey]}
            customerId={customerId}
            canManage={false}
          />
        ))}
      </div>
    </Card>
  );
}

/** What a manager is told where nothing of a kind is assigned: where to assign it. */
const EMPTY_HINTS = { fileFolder: 'resources.emptyFileFolder', file: 'resources.emptyFile' } as const;

function ResourceKindRow({
  teamId,
  type,
  count,
  customerId,
  canManage,
}: {
  teamId: string;
  type: Exclude<TeamResourceKind, 'user'>;
  count: number | undefined;
  customerId: number | undefined;
  canManage: boolean;
}) {
  // The list reports counts; only kinds with something assigned are fetched.
  const query = useTeamAssignments(teamId, type, customerId, (count ?? 0) > 0);
  const names = useTeamResourceNames(teamId, type, customerId, (count ?? 0) > 0).data;
  const update = useUpdateTeamAssignments(teamId, type, customerId);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TeamAssignment | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const t = useTranslations('teams');
  const errorMessage = useErrorMessage();
  const label = t(`resources.kinds.${type}`);
  const format = useFormat();
  const emptyHint = canManage && (type === 'fileFolder' || type === 'file') ? t(EMPTY_HINTS[type]) : t('resources.none');
  const rows = query.data ?? [];
  const nameOf = (id: string) => names?.get(id) || null;
  const href = (id: string) => (type === 'fileFolder' ? `/media?folder=${id}` : type === 'file' ? `/media?file=${id}` : null);

  async function setReadOnly(row: TeamAssignment, readOnly: boolean) {
    setRowError(null);
    setPendingId(row.id);
    try {
      await update.mutateAsync({ resourcesToAdd: [{ id: row.id, readOnly }] });
    } catch (error) {
      setRowError(errorMessage(error));
    } finally {
      setPendingId(null);
    }
  }

  return (
    <div className="px-5 py-3.5" data-testid={`team-resources-${type}`}>
      <div className="flex items-center gap-2 text-sm">
        {type === 'file' ? <PhotoIcon className="size-4 text-zinc-400" /> : <FolderIcon className="size-4 text-zinc-400" />}
        <span className="font-medium text-zinc-800">{label}</span>
        <span className="text-zinc-500 tabular-nums">{format.number(count ?? 0)}</span>
      </div>
      {(count ?? 0) === 0 ? (
        <p className="mt-1 pl-6 text-sm text-zinc-500">{emptyHint}</p>
      ) : query.isPending ? (
        <p className="mt-1 flex items-center gap-2 pl-6 text-sm text-zinc-500">
          <Spinner /> {t('resources.loading')}
        </p>
      ) : query.isError ? (
        <p className="mt-1 pl-6 text-sm text-red-700">{t('resources.loadError', { message: errorMessage(query.error) })}</p>
      ) : (
        <ul className="mt-2 space-y-1 pl-6" aria-label={label}>
          {rows.map((row) => {
            const name = nameOf(row.id);
            const link = href(row.id);

            return (
              <li key={row.id} className="flex min-h-8 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                {name && link ? (
                  <Link href={link} className="text-zinc-800 hover:text-brand-700 hover:underline" title={row.id}>
                    {name}
                  </Link>
                ) : name ? (
                  <span className="text-zinc-800" title={row.id}>
                    {name}
                  </span>
                ) : (
                  <code className="font-mono text-xs text-zinc-600">{row.id}</code>
                )}
                {canManage ? (
                  <>
                    <label className="inline-flex cursor-pointer items-center gap-1.5 text-zinc-600">
                      <input
                        type="checkbox"
                        className="size-4 cursor-pointer accent-brand-600"
                        checked={row.readOnly}
                        disabled={pendingId === row.id}
                        onChange={(e) => void setReadOnly(row, e.target.checked)}
                        aria-label={t('readOnlyOf', { name: name ?? row.id })}
                      />
                      {pendingId === row.id ? <Spinner /> : t('readOnly')}
                    </label>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setRemoving(row)}
                      aria-label={t('removeName', { name: name ?? row.id })}
                    >
                      {t('remove')}
                    </Button>
                  </>
                ) : row.readOnly ? (
                  <Badge>{t('readOnly')}</Badge>
                ) : (
                  <span className="text-xs text-zinc-500">{t('editable')}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {rowError ? <p className="mt-1 pl-6 text-sm text-red-700">{rowError}</p> : null}
      {canManage ? (
        <ConfirmDialog
          open={removing !== null}
          onOpenChange={(open) => (open ? undefined : setRemoving(null))}
          title={t('resources.removeTitle', { kind: type })}
          description={t.rich('resources.removeBody', {
            name: removing ? (nameOf(removing.id) ?? removing.id) : '',
            strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
          })}
          confirmLabel={t('remove')}
          onConfirm={() => update.mutateAsync({ resourceIdsToRemove: removing ? [removing.id] : [] })}
        />
      ) : null}
    </div>
  );
}

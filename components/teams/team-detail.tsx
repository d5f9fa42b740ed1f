'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Avatar } from '@/components/shell/user-menu';
import { ChevronLeftIcon, FolderIcon, PhotoIcon, PlusIcon, TeamIcon } from '@/components/ui/icons';
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
import { errorMessage, isCancelled } from '@/lib/api/protected';
import { useUpdateUser } from '@/lib/api/users';
import { MEMBER_MEANS, RESTRICTED_MEANS } from '@/components/teams/access-words';
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
import { roleLabel, type User } from '@/lib/api/types';
import { formatDate } from '@/lib/format';

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

  if (!access.canView) return <NoAccess title="Teams are not available to you">Your role cannot see teams.</NoAccess>;
  if (team.isPending) {
    return (
      <div className="flex items-center gap-2 py-10 text-sm text-zinc-500">
        <Spinner /> Loading the team…
      </div>
    );
  }
  if (team.isError || !team.data) {
    return (
      <div className="space-y-4">
        <BackLink />
        <Alert
          title={team.isError ? 'The team could not be loaded.' : 'This team does not exist.'}
          action={
            team.isError ? (
              <Button variant="secondary" size="sm" onClick={() => void team.refetch()}>
                Try again
              </Button>
            ) : null
          }
        >
          {team.isError ? team.error.message : 'It may have been deleted, or it belongs to another tenant.'}
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
              {current.comment ? `${current.comment} · ` : ''}Created {formatDate(current.createdDate)}
            </p>
          </div>
          {access.canManage ? (
            <div className="flex items-center gap-2">
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Rename
              </Button>
              <Button variant="secondary" className="text-red-700 hover:bg-red-50" onClick={() => setDeleting(current)}>
                Delete
              </Button>
            </div>
          ) : null}
        </div>
      </div>
      {access.canManage ? (
        <>
          <TeamFormDialog open={editing} team={current} onOpenChange={setEditing} />
          <DeleteTeamDialog team={deleting} onOpenChange={(open) => (open ? undefined : setDeleting(null))} onDeleted={() => router.push('/teams')} />
        </>
      ) : null}
      {access.isManager && access.needsTenant ? (
        <Alert tone="info" title="Read-only view.">
          Pick this team&apos;s tenant in the switcher to change its members.
        </Alert>
      ) : null}
      <MembersCard team={current} customerId={customerId} canManage={access.canManage} />
      <ResourcesCard team={current} customerId={customerId} canManage={access.canManage} />
    </div>
  );
}

function BackLink() {
  return (
    <Link href="/teams" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
      <ChevronLeftIcon className="size-4" />
      Teams
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

  const label = (m: Member) => m.user?.name || m.user?.email || m.id;

  return (
    <Card className="overflow-hidden">
      <SectionHeader
        title="Members"
        description={`${RESTRICTED_MEANS} ${MEMBER_MEANS} A read-only member can be seen, not edited, by the rest of the team.`}
        actions={
          canManage ? (
            <Button size="sm" onClick={() => setAdding(true)}>
              <PlusIcon className="size-4" />
              Add members
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <>
          <AddMembersDialog open={adding} onOpenChange={setAdding} teamId={team.id} teamName={team.name} memberIds={memberIds} customerId={customerId} />
          <ConfirmDialog
            open={removing !== null}
            onOpenChange={(open) => (open ? undefined : setRemoving(null))}
            title="Remove from team?"
            description={
              <>
                <span className="font-medium text-zinc-700">{removing ? label(removing) : ''}</span> leaves{' '}
                <span className="font-medium text-zinc-700">{team.name}</span> and no longer sees its folders through it.
              </>
            }
            confirmLabel="Remove"
            destructive
            onConfirm={() => update.mutateAsync({ resourceIdsToRemove: removing ? [removing.id] : [] })}
          />
        </>
      ) : null}
      {rowError ? <Alert className="m-4">{rowError}</Alert> : null}
      {assignments.isError ? (
        <LoadError className="m-4" title="The members could not be loaded." error={assignments.error} onRetry={() => void assignments.refetch()} />
      ) : assignments.isPending ? (
        <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
          <Spinner /> Loading members…
        </p>
      ) : members.length === 0 ? (
        <div className="px-5 py-10 text-center" data-testid="members-empty">
          <p className="text-sm font-medium text-zinc-900">No members yet</p>
          <p className="mt-1 text-sm text-zinc-500">{canManage ? 'Add users of this tenant to the team.' : 'Nobody belongs to this team.'}</p>
        </div>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Members">
            <thead className="border-b border-zinc-200 bg-zinc-50/80">
              <tr>
                {['Name', 'E-mail', 'Role', 'Access', 'Read-only'].map((h) => (
                  <th key={h} scope="col" className="px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase">
                    {h}
                  </th>
                ))}
                {canManage ? (
                  <th scope="col" className="w-12">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {members.map((member) => (
                <tr key={member.id} className="hover:bg-zinc-50/60">
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <Avatar name={label(member)} />
                      <span className="font-medium whitespace-nowrap text-zinc-900">{member.user?.name || <span className="text-zinc-400">{member.user ? 'No name' : member.id}</span>}</span>
                    </div>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-zinc-600">{member.user?.email ?? '—'}</td>
                  <td className="px-4 py-3">{member.user ? <Badge>{roleLabel(member.user.role)}</Badge> : '—'}</td>
                  <td className="px-4 py-3">{member.user ? <RestrictedCell teamId={team.id} user={member.user} canManage={canManage} /> : '—'}</td>
                  <td className="px-4 py-3">
                    {canManage ? (
                      <label className="inline-flex cursor-pointer items-center gap-2 text-zinc-700">
                        <input
                          type="checkbox"
                          className="size-4 cursor-pointer accent-brand-600"
                          checked={member.readOnly}
                          disabled={pendingId === member.id}
                          onChange={(e) => void setReadOnly(member, e.target.checked)}
                          aria-label={`Read-only: ${label(member)}`}
                        />
                        {pendingId === member.id ? <Spinner /> : member.readOnly ? 'Read-only' : 'Editable'}
                      </label>
                    ) : member.readOnly ? (
                      <Badge>Read-only</Badge>
                    ) : (
                      <span className="text-zinc-500">Editable</span>
                    )}
                  </td>
                  {canManage ? (
                    <td className="px-4 py-3 text-right">
                      <Button variant="ghost" size="sm" onClick={() => setRemoving(member)} aria-label={`Remove ${label(member)}`}>
                        Remove
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
  const restricted = Boolean(user.restricted);
  const label = restricted ? 'Only its teams' : 'Teams + unassigned';
  if (!canManage) return <span className="whitespace-nowrap text-zinc-600" title={restricted ? RESTRICTED_MEANS : MEMBER_MEANS}>{label}</span>;

  return (
    <div>
      <label className="inline-flex cursor-pointer items-center gap-2 whitespace-nowrap text-zinc-700" title={restricted ? RESTRICTED_MEANS : MEMBER_MEANS}>
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
          aria-label={`Restricted: ${user.name || user.email}`}
        />
        {update.isPending ? <Spinner /> : restricted ? 'Restricted' : 'Teams + unassigned'}
      </label>
      {error ? <p className="mt-1 text-xs text-red-700">{error}</p> : null}
    </div>
  );
}

function ResourcesCard({ team, customerId, canManage }: { team: Team; customerId: number | undefined; canManage: boolean }) {
  const [assigning, setAssigning] = useState(false);
  const folders = useTeamAssignments(team.id, 'fileFolder', customerId, (team.teamFileFolderNumber ?? 0) > 0 || assigning);
  const assignedFolderIds = useMemo(() => new Set((folders.data ?? []).map((a) => a.id)), [folders.data]);

  return (
    <Card className="overflow-hidden">
      <SectionHeader
        title="Folders and files"
        description="What the team's members see and use. A folder and a file are assigned each on its own: assigning a folder does not assign the files in it. Read-only ones can be seen and used, not changed."
        actions={
          canManage ? (
            <Button size="sm" onClick={() => setAssigning(true)}>
              <PlusIcon className="size-4" />
              Assign folders
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <AssignFoldersDialog open={assigning} onOpenChange={setAssigning} teamId={team.id} teamName={team.name} assignedIds={assignedFolderIds} customerId={customerId} />
      ) : null}
      <div className="divide-y divide-zinc-100">
        <ResourceKindRow teamId={team.id} type="fileFolder" label="Media folders" count={team.teamFileFolderNumber} customerId={customerId} canManage={canManage} />
        <ResourceKindRow teamId={team.id} type="file" label="Media files" count={team.teamFileNumber} customerId={customerId} canManage={canManage} />
        {TEAM_RESOURCE_KINDS.filter((kind) => kind.type !== 'fileFolder').map((kind) => (
          <ResourceKindRow key={kind.type} teamId={team.id} type={kind.type} label={kind.label} count={team[kind.countKey]} customerId={customerId} canManage={false} />
        ))}
      </div>
    </Card>
  );
}

const EMPTY_HINTS: Partial<Record<TeamResourceKind, string>> = {
  fileFolder: 'None assigned. Assign folders here, or a folder\'s teams in the media library.',
  file: 'None assigned. Assign single files from their details in the media library.',
};

function ResourceKindRow({
  teamId,
  type,
  label,
  count,
  customerId,
  canManage,
}: {
  teamId: string;
  type: Exclude<TeamResourceKind, 'user'>;
  label: string;
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
        <span className="text-zinc-500 tabular-nums">{count ?? 0}</span>
      </div>
      {(count ?? 0) === 0 ? (
        <p className="mt-1 pl-6 text-sm text-zinc-500">{(canManage && EMPTY_HINTS[type]) || 'None assigned.'}</p>
      ) : query.isPending ? (
        <p className="mt-1 flex items-center gap-2 pl-6 text-sm text-zinc-500">
          <Spinner /> Loading…
        </p>
      ) : query.isError ? (
        <p className="mt-1 pl-6 text-sm text-red-700">Could not be loaded: {query.error.message}</p>
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
                        aria-label={`Read-only: ${name ?? row.id}`}
                      />
                      {pendingId === row.id ? <Spinner /> : 'Read-only'}
                    </label>
                    <Button variant="ghost" size="sm" onClick={() => setRemoving(row)} aria-label={`Remove ${name ?? row.id}`}>
                      Remove
                    </Button>
                  </>
                ) : row.readOnly ? (
                  <Badge>Read-only</Badge>
                ) : (
                  <span className="text-xs text-zinc-500">Editable</span>
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
          title={type === 'file' ? 'Remove the file from the team?' : 'Remove the folder from the team?'}
          description={
            <>
              <span className="font-medium text-zinc-700">{removing ? (nameOf(removing.id) ?? removing.id) : ''}</span> stays in the media library; the team&apos;s
              members no longer use it through this team.
            </>
          }
          confirmLabel="Remove"
          onConfirm={() => update.mutateAsync({ resourceIdsToRemove: removing ? [removing.id] : [] })}
        />
      ) : null}
    </div>
  );
}

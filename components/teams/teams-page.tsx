'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { PlusIcon, TeamIcon } from '@/components/ui/icons';
import { NoAccess } from '@/components/settings/no-access';
import { DeleteTeamDialog, TeamFormDialog } from '@/components/teams/team-dialogs';
import { useTeamAccess } from '@/components/teams/use-team-access';
import { MEMBER_MEANS, RESTRICTED_MEANS } from '@/components/teams/access-words';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useTenantNames, type TenantName } from '@/lib/api/customers';
import { TEAM_RESOURCE_KINDS, useTeams, type Team } from '@/lib/api/teams';
import { formatDate } from '@/lib/format';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'createdDate'] as const;

type TeamAction = { kind: 'edit' | 'delete'; team: Team };

function folderCount(team: Team): number {
  return TEAM_RESOURCE_KINDS.reduce((sum, kind) => sum + (team[kind.countKey] ?? 0), 0);
}

function buildColumns(tenantName: TenantName | null, onAction: ((action: TeamAction) => void) | null): ColumnDef<Team>[] {
  const columns: ColumnDef<Team>[] = [
    {
      id: 'name', meta: { size: 200 },
      accessorKey: 'name',
      header: 'Team',
      cell: ({ row }) => (
        <div className="min-w-0">
          <Link href={`/teams/${row.original.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
            {row.original.name}
          </Link>
          {row.original.comment ? <p className="mt-0.5 max-w-md truncate text-xs text-zinc-500">{row.original.comment}</p> : null}
        </div>
      ),
    },
    {
      id: 'members', meta: { priority: 1, size: 100 },
      header: 'Members',
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-700 tabular-nums">{(row.original.teamUserNumber ?? 0).toLocaleString()}</span>,
    },
    {
      id: 'folders', meta: { priority: 2, size: 160 },
      header: 'Folders',
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-700 tabular-nums">{folderCount(row.original).toLocaleString()}</span>,
    },
  ];
  if (tenantName) {
    columns.push({
      id: 'tenant', meta: { priority: 4, size: 140 },
      header: 'Tenant',
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantName(row.original.customerId)}</span>,
    });
  }
  columns.push({
    id: 'createdDate', meta: { priority: 3, size: 120 },
    accessorKey: 'createdDate',
    header: 'Created',
    cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDate(row.original.createdDate)}</span>,
  });
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const team = row.original;

        return (
          <RowActions label={`Actions for ${team.name}`}>
            <DropdownMenuItem asChild>
              <Link href={`/teams/${team.id}`}>Members and folders</Link>
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', team })}>Rename</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => onAction({ kind: 'delete', team })}
            >
              Delete
            </DropdownMenuItem>
          </RowActions>
        );
      },
    });
  }

  return columns;
}


export function TeamsPage() {
  const router = useRouter();
  const access = useTeamAccess();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useTeams({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<TeamAction | null>(null);
  const tenantName = useTenantNames(query.data?.content.map((t) => t.customerId) ?? [], access.needsTenant);
  const columns = useMemo(() => buildColumns(access.needsTenant ? tenantName : null, access.canManage ? setAction : null), [access.needsTenant, access.canManage, tenantName]);
  const close = (open: boolean) => (open ? undefined : setAction(null));
  if (!access.canView) return <NoAccess title="Teams are not available to you">Your role cannot see teams.</NoAccess>;

  return (
    <>
      <PageHeader
        title="Teams"
        description={
          access.tenant ? (
            <>
              Groups of users in <span className="font-medium text-zinc-700">{access.tenant.name}</span> and the folders they share. {RESTRICTED_MEANS}
            </>
          ) : (
            `Groups of users and the folders they share, across all tenants. ${RESTRICTED_MEANS}`
          )
        }
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              New team
            </Button>
          ) : null
        }
      />
      {access.canManage ? (
        <>
          <TeamFormDialog open={isCreating} onOpenChange={setIsCreating} tenantName={access.tenant?.name} onCreated={(team) => router.push(`/teams/${team.id}`)} />
          <TeamFormDialog open={action?.kind === 'edit'} team={action?.kind === 'edit' ? action.team : null} onOpenChange={close} />
          <DeleteTeamDialog team={action?.kind === 'delete' ? action.team : null} onOpenChange={close} />
        </>
      ) : null}

      <ResourceList
        identity={{ name: 'teams', noun: { one: 'team', other: 'teams' } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(team) => team.id}
        sortable={SORTABLE}
        search={{ label: 'Search teams by name', placeholder: 'Search by name' }}
        notices={
          access.isManager && access.needsTenant ? (
            <Alert tone="info" title="Choose a tenant to manage its teams.">
              With all tenants shown, teams are read-only. Pick a tenant in the switcher above to create, rename or delete teams.
            </Alert>
          ) : null
        }
        errorTitle="The teams could not be loaded."
        empty={{
          icon: <TeamIcon className="size-5 text-zinc-500" />,
          title: 'No teams yet',
          body: `A team shares folders with its members. ${RESTRICTED_MEANS} ${MEMBER_MEANS}`,
          action: access.canManage ? (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              New team
            </Button>
          ) : null,
        }}
      />
    </>
  );
}

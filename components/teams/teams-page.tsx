'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { PlusIcon, TeamIcon } from '@/components/ui/icons';
import { NoAccess } from '@/components/settings/no-access';
import { DeleteTeamDialog, TeamFormDialog } from '@/components/teams/team-dialogs';
import { useTeamAccess } from '@/components/teams/use-team-access';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useTenantNames, type TenantName } from '@/lib/api/customers';
import { TEAM_RESOURCE_KINDS, useTeams, type Team } from '@/lib/api/teams';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'createdDate'] as const;

type TeamAction = { kind: 'edit' | 'delete'; team: Team };

function folderCount(team: Team): number {
  return TEAM_RESOURCE_KINDS.reduce((sum, kind) => sum + (team[kind.countKey] ?? 0), 0);
}

/** What the columns need to word their cells: the catalogue and formats. */
type Words = { t: Translate<'teams'>; format: ReturnType<typeof useFormat> };

function buildColumns(
  { t, format }: Words,
  tenantName: TenantName | null,
  onAction: ((action: TeamAction) => void) | null,
): ColumnDef<Team>[] {
  const columns: ColumnDef<Team>[] = [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('list.columns.name'),
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
      id: 'members',
      meta: { priority: 1, size: 100 },
      header: t('list.columns.members'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-700 tabular-nums">{format.number(row.original.teamUserNumber ?? 0)}</span>,
    },
    {
      id: 'folders',
      meta: { priority: 2, size: 160 },
      header: t('list.columns.folders'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-700 tabular-nums">{format.number(folderCount(row.original))}</span>,
    },
  ];
  if (tenantName) {
    columns.push({
      id: 'tenant',
      meta: { priority: 4, size: 140 },
      header: t('list.columns.tenant'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantName(row.original.customerId)}</span>,
    });
  }
  columns.push({
    id: 'createdDate',
    meta: { priority: 3, size: 120 },
    accessorKey: 'createdDate',
    header: t('list.columns.created'),
    cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.date(row.original.createdDate)}</span>,
  });
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">{t('actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const team = row.original;

        return (
          <RowActions label={t('list.actionsFor', { name: team.name })}>
            <DropdownMenuItem asChild>
              <Link href={`/teams/${team.id}`}>{t('list.membersAndFolders')}</Link>
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', team })}>{t('rename')}</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => onAction({ kind: 'delete', team })}
            >
              {t('delete')}
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
  const t = useTranslations('teams');
  const format = useFormat();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useTeams({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<TeamAction | null>(null);
  const tenantName = useTenantNames(query.data?.content.map((team) => team.customerId) ?? [], access.needsTenant);
  const columns = useMemo(
    () => buildColumns({ t, format }, access.needsTenant ? tenantName : null, access.canManage ? setAction : null),
    [t, format, access.needsTenant, access.canManage, tenantName],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.body')}</NoAccess>;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          <>
            {access.tenant
              ? t.rich('list.descriptionTenant', {
                  tenant: access.tenant.name,
                  strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
                })
              : t('list.descriptionAll')}{' '}
            {t('access.restricted')}
          </>
        }
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('list.new')}
            </Button>
          ) : null
        }
      />
      {access.canManage ? (
        <>
          <TeamFormDialog
            open={isCreating}
            onOpenChange={setIsCreating}
            tenantName={access.tenant?.name}
            onCreated={(team) => router.push(`/teams/${team.id}`)}
          />
          <TeamFormDialog open={action?.kind === 'edit'} team={action?.kind === 'edit' ? action.team : null} onOpenChange={close} />
          <DeleteTeamDialog team={action?.kind === 'delete' ? action.team : null} onOpenChange={close} />
        </>
      ) : null}

      <ResourceList
        identity={{ name: 'teams', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(team) => team.id}
        sortable={SORTABLE}
        search={{ label: t('list.searchLabel'), placeholder: t('list.searchPlaceholder') }}
        notices={
          access.isManager && access.needsTenant ? (
            <Alert tone="info" title={t('list.chooseTenantTitle')}>
              {t('list.chooseTenantBody')}
            </Alert>
          ) : null
        }
        errorTitle={t('list.loadError')}
        empty={{
          icon: <TeamIcon className="size-5 text-zinc-500" />,
          title: t('list.emptyTitle'),
          body: (
            <>
              {t('list.emptyBody')} {t('access.restricted')} {t('access.member')}
            </>
          ),
          action: access.canManage ? (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('list.new')}
            </Button>
          ) : null,
        }}
      />
    </>
  );
}

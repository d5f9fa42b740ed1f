'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { Avatar } from '@/components/shell/user-menu';
import { UsersIcon } from '@/components/ui/icons';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { RowActions } from '@/components/ui/row-actions';
import type { User } from '@/lib/api/types';
import { useUsers } from '@/lib/api/users';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { DeleteUserDialog, EditUserDialog, ResetTotpDialog } from '@/components/users/user-dialogs';
import { ResendInvitationDialog } from '@/components/users/resend-invitation-dialog';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canManageUser } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/types';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';

type UserAction = { kind: 'edit' | 'delete' | 'reset2fa' | 'resend'; user: User };

/** What a column needs to word its cells: the table's words, the label table, formats, and what "Restricted" means. */
type Words = { t: Translate<'users.table'>; label: Label; format: ReturnType<typeof useFormat>; restrictedMeans: string };

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'email', 'role', 'lastActivity', 'createdDate'] as const;

function tenantOf(user: User): string {
  if (user.customer?.name) return user.customer.name;
  const id = user.customer?.id ?? user.customerId;

  return id === null || id === undefined ? '—' : `#${id}`;
}

function buildColumns(
  { t, label, format, restrictedMeans }: Words,
  showTenant: boolean,
  me: SessionUser,
  onAction: ((action: UserAction) => void) | null,
): ColumnDef<User>[] {
  const columns: ColumnDef<User>[] = [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => {
        const name = row.original.name || row.original.email;

        return (
          <div className="flex items-center gap-3">
            <Avatar name={name} />
            <span className="font-medium whitespace-nowrap text-zinc-900">
              {row.original.name || <span className="text-zinc-400">{t('noName')}</span>}
            </span>
          </div>
        );
      },
    },
    {
      id: 'email',
      meta: { priority: 2, size: 200 },
      accessorKey: 'email',
      header: t('columns.email'),
      // Long addresses are cut with an ellipsis (the whole one in the tooltip), so the row keeps its actions in view.
      cell: ({ row }) => (
        <span className="block max-w-56 truncate whitespace-nowrap text-zinc-600" title={row.original.email}>
          {row.original.email}
        </span>
      ),
    },
    {
      id: 'role',
      meta: { priority: 1, size: 150 },
      accessorKey: 'role',
      header: t('columns.role'),
      cell: ({ row }) => (
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge>{label('role', row.original.role)}</Badge>
          {row.original.readOnly ? <Badge>{t('readOnly')}</Badge> : null}
          {row.original.restricted ? (
            <span title={restrictedMeans}>
              <Badge>{t('restricted')}</Badge>
            </span>
          ) : null}
          {row.original.use2FA ? <Badge tone="brand">{t('twoFactor')}</Badge> : null}
        </div>
      ),
    },
  ];
  if (showTenant) {
    columns.push({
      id: 'tenant',
      meta: { priority: 5, size: 140 },
      header: t('columns.tenant'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantOf(row.original)}</span>,
    });
  }
  columns.push(
    {
      id: 'lastActivity',
      meta: { priority: 3, size: 190 },
      accessorKey: 'lastActivity',
      header: t('columns.lastActivity'),
      // The last sign-in shares the cell: the table must fit a laptop screen with its actions.
      cell: ({ row }) => (
        <div className="whitespace-nowrap">
          <p className="text-zinc-600">{format.dateTime(row.original.lastActivity, t('never'))}</p>
          {row.original.lastLogin ? (
            <p className="text-xs text-zinc-500">{t('signedIn', { date: format.dateTime(row.original.lastLogin) })}</p>
          ) : null}
        </div>
      ),
    },
    {
      id: 'createdDate',
      meta: { priority: 4, size: 120 },
      accessorKey: 'createdDate',
      header: t('columns.created'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.date(row.original.createdDate)}</span>,
    },
  );
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const user = row.original;
        const actionsLabel = t('actionsFor', { name: user.name || user.email });
        if (user.id === me.id) {
          return (
            <RowActions label={actionsLabel}>
              <DropdownMenuItem asChild>
                <Link href="/account">{t('editAccount')}</Link>
              </DropdownMenuItem>
            </RowActions>
          );
        }
        if (!canManageUser(me.role, user.role)) return null;

        return (
          <RowActions label={actionsLabel}>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', user })}>{t('edit')}</DropdownMenuItem>
            {user.use2FA ? (
              <DropdownMenuItem onSelect={() => onAction({ kind: 'reset2fa', user })}>{t('reset2fa')}</DropdownMenuItem>
            ) : null}
            {(user.authProvider ?? 'LOCAL') === 'LOCAL' ? (
              <DropdownMenuItem onSelect={() => onAction({ kind: 'resend', user })}>{t('resend')}</DropdownMenuItem>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => onAction({ kind: 'delete', user })}
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

export function UsersTable() {
  const { canSwitch, tenant } = useTenant();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const showTenant = canSwitch && !tenant;
  const query = useUsers({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text, withTenant: showTenant });

  const me = useCurrentUser();
  const t = useTranslations('users');
  const tableT = useTranslations('users.table');
  const teamsT = useTranslations('teams');
  const restrictedMeans = teamsT('access.restricted');
  const label = useLabel();
  const format = useFormat();
  const [action, setAction] = useState<UserAction | null>(null);
  const canAct = me.role === 'ADMIN' || me.role === 'OWNER';
  const columns = useMemo(
    () => buildColumns({ t: tableT, label, format, restrictedMeans }, showTenant, me, canAct ? setAction : null),
    [tableT, label, format, restrictedMeans, showTenant, me, canAct],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));

  return (
    <>
      <EditUserDialog user={action?.kind === 'edit' ? action.user : null} onOpenChange={close} />
      <DeleteUserDialog user={action?.kind === 'delete' ? action.user : null} onOpenChange={close} />
      <ResetTotpDialog user={action?.kind === 'reset2fa' ? action.user : null} onOpenChange={close} />
      <ResendInvitationDialog user={action?.kind === 'resend' ? action.user : null} onOpenChange={close} />
      <ResourceList
        identity={{ name: 'users', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(user) => String(user.id)}
        sortable={SORTABLE}
        search={{ label: tableT('searchLabel'), placeholder: tableT('searchPlaceholder') }}
        errorTitle={tableT('loadError')}
        empty={{
          icon: <UsersIcon className="size-5 text-zinc-500" />,
          title: tableT('emptyTitle'),
          body: tenant ? tableT('emptyTenant', { tenant: tenant.name }) : tableT('emptyAll'),
        }}
        filteredHint={tableT('filteredHint')}
      />
    </>
  );
}

'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { Avatar } from '@/components/shell/user-menu';
import { UsersIcon } from '@/components/ui/icons';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { RowActions } from '@/components/ui/row-actions';
import { roleLabel, type User } from '@/lib/api/types';
import { useUsers } from '@/lib/api/users';
import { formatDate, formatDateTime } from '@/lib/format';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { DeleteUserDialog, EditUserDialog, ResetTotpDialog } from '@/components/users/user-dialogs';
import { ResendInvitationDialog } from '@/components/users/resend-invitation-dialog';
import { RESTRICTED_MEANS } from '@/components/teams/access-words';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canManageUser } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/types';
import { useTenant } from '@/lib/tenant/tenant-context';

type UserAction = { kind: 'edit' | 'delete' | 'reset2fa' | 'resend'; user: User };

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'email', 'role', 'lastActivity', 'createdDate'] as const;

function tenantOf(user: User): string {
  if (user.customer?.name) return user.customer.name;
  const id = user.customer?.id ?? user.customerId;

  return id === null || id === undefined ? '—' : `#${id}`;
}

function buildColumns(showTenant: boolean, me: SessionUser, onAction: ((action: UserAction) => void) | null): ColumnDef<User>[] {
  const columns: ColumnDef<User>[] = [
    {
      id: 'name', meta: { size: 200 },
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => {
        const name = row.original.name || row.original.email;

        return (
          <div className="flex items-center gap-3">
            <Avatar name={name} />
            <span className="font-medium whitespace-nowrap text-zinc-900">
              {row.original.name || <span className="text-zinc-400">No name</span>}
            </span>
          </div>
        );
      },
    },
    {
      id: 'email', meta: { priority: 2, size: 200 },
      accessorKey: 'email',
      header: 'E-mail',
      // Long addresses are cut with an ellipsis (the whole one in the tooltip), so the row keeps its actions in view.
      cell: ({ row }) => (
        <span className="block max-w-56 truncate whitespace-nowrap text-zinc-600" title={row.original.email}>
          {row.original.email}
        </span>
      ),
    },
    {
      id: 'role', meta: { priority: 1, size: 150 },
      accessorKey: 'role',
      header: 'Role',
      cell: ({ row }) => (
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge>{roleLabel(row.original.role)}</Badge>
          {row.original.readOnly ? <Badge>Read-only</Badge> : null}
          {row.original.restricted ? (
            <span title={RESTRICTED_MEANS}>
              <Badge>Restricted</Badge>
            </span>
          ) : null}
          {row.original.use2FA ? <Badge tone="brand">2FA</Badge> : null}
        </div>
      ),
    },
  ];
  if (showTenant) {
    columns.push({
      id: 'tenant', meta: { priority: 5, size: 140 },
      header: 'Tenant',
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantOf(row.original)}</span>,
    });
  }
  columns.push(
    {
      id: 'lastActivity', meta: { priority: 3, size: 190 },
      accessorKey: 'lastActivity',
      header: 'Last activity',
      // The last sign-in shares the cell: the table must fit a laptop screen with its actions.
      cell: ({ row }) => (
        <div className="whitespace-nowrap">
          <p className="text-zinc-600">{formatDateTime(row.original.lastActivity, 'Never')}</p>
          {row.original.lastLogin ? <p className="text-xs text-zinc-500">Signed in {formatDateTime(row.original.lastLogin)}</p> : null}
        </div>
      ),
    },
    {
      id: 'createdDate', meta: { priority: 4, size: 120 },
      accessorKey: 'createdDate',
      header: 'Created',
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDate(row.original.createdDate)}</span>,
    },
  );
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const user = row.original;
        const label = `Actions for ${user.name || user.email}`;
        if (user.id === me.id) {
          return (
            <RowActions label={label}>
              <DropdownMenuItem asChild>
                <Link href="/account">Edit your account</Link>
              </DropdownMenuItem>
            </RowActions>
          );
        }
        if (!canManageUser(me.role, user.role)) return null;

        return (
          <RowActions label={label}>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', user })}>Edit</DropdownMenuItem>
            {user.use2FA ? <DropdownMenuItem onSelect={() => onAction({ kind: 'reset2fa', user })}>Reset 2FA</DropdownMenuItem> : null}
            {(user.authProvider ?? 'LOCAL') === 'LOCAL' ? <DropdownMenuItem onSelect={() => onAction({ kind: 'resend', user })}>Resend invitation</DropdownMenuItem> : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onAction({ kind: 'delete', user })}>
              Delete
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
  const [action, setAction] = useState<UserAction | null>(null);
  const canAct = me.role === 'ADMIN' || me.role === 'OWNER';
  const columns = useMemo(() => buildColumns(showTenant, me, canAct ? setAction : null), [showTenant, me, canAct]);
  const close = (open: boolean) => (open ? undefined : setAction(null));

  return (
    <>
      <EditUserDialog user={action?.kind === 'edit' ? action.user : null} onOpenChange={close} />
      <DeleteUserDialog user={action?.kind === 'delete' ? action.user : null} onOpenChange={close} />
      <ResetTotpDialog user={action?.kind === 'reset2fa' ? action.user : null} onOpenChange={close} />
      <ResendInvitationDialog user={action?.kind === 'resend' ? action.user : null} onOpenChange={close} />
      <ResourceList
        identity={{ name: 'users', noun: { one: 'user', other: 'users' } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(user) => String(user.id)}
        sortable={SORTABLE}
        search={{ label: 'Search users by name or e-mail', placeholder: 'Search by name or e-mail' }}
        errorTitle="The users could not be loaded."
        empty={{
          icon: <UsersIcon className="size-5 text-zinc-500" />,
          title: 'No users yet',
          body: tenant ? `${tenant.name} has no users yet.` : 'There are no users to show.',
        }}
        filteredHint="Try another name or e-mail address."
      />
    </>
  );
}

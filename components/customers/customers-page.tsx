'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { CustomerFormDialog, ExpirationDialog, MoveDialog } from '@/components/customers/customer-dialogs';
import { BriefcaseIcon, PlusIcon } from '@/components/ui/icons';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { UiElement } from '@/components/ui-profiles/ui-element';
import { useCustomers, useDeleteCustomer, useNetworkOwnerChange, useSaveCustomer } from '@/lib/api/customers';
import { useIsNetworkOwner } from '@/lib/api/network-owner';
import { tierLabel, verticalLabel, type Customer } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canManageCustomers } from '@/lib/auth/permissions';
import { formatDate, formatDateTime } from '@/lib/format';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'licenseTier', 'vertical', 'restricted', 'lastActivity', 'expirationDate', 'createdDate'] as const;

type ActionKind = 'edit' | 'expiration' | 'restrict' | 'promote' | 'demote' | 'move' | 'delete';
type CustomerAction = { kind: ActionKind; customer: Customer };

const dangerItem = 'text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800';

function isExpired(customer: Customer): boolean {
  return Boolean(customer.expirationDate && new Date(customer.expirationDate).getTime() < Date.now());
}

function buildColumns(isAdmin: boolean, onAction: (a: CustomerAction) => void): ColumnDef<Customer>[] {
  return [
    {
      id: 'name', meta: { size: 200 },
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <div className="min-w-40">
          <p className="font-medium text-zinc-900">{row.original.name}</p>
          {row.original.location || row.original.country ? (
            <p className="text-xs text-zinc-500">{[row.original.location, row.original.country].filter(Boolean).join(', ')}</p>
          ) : null}
        </div>
      ),
    },
    { id: 'licenseTier', meta: { priority: 2, size: 100 }, accessorKey: 'licenseTier', header: 'Tier', cell: ({ row }) => <Badge>{tierLabel(row.original.licenseTier)}</Badge> },
    {
      id: 'vertical', meta: { priority: 5, size: 120 },
      accessorKey: 'vertical',
      header: 'Vertical',
      cell: ({ row }) => <span className="text-zinc-600">{verticalLabel(row.original.vertical)}</span>,
    },
    {
      id: 'networkOwner', meta: { priority: 6, size: 140 },
      header: 'Network owner',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.subreseller ? (
          <Badge tone="brand">Network owner</Badge>
        ) : (
          <span className="whitespace-nowrap text-zinc-600">
            {row.original.ownerSubresellerName ?? (row.original.ownerSubresellerId ? `#${row.original.ownerSubresellerId}` : '—')}
          </span>
        ),
    },
    {
      id: 'restricted', meta: { priority: 1, size: 110 },
      accessorKey: 'restricted',
      header: 'Status',
      cell: ({ row }) =>
        row.original.restricted ? (
          <Badge tone="danger">Restricted</Badge>
        ) : isExpired(row.original) ? (
          <Badge tone="warning">Expired</Badge>
        ) : (
          <Badge tone="success">Active</Badge>
        ),
    },
    {
      id: 'lastActivity', meta: { priority: 3, size: 170 },
      accessorKey: 'lastActivity',
      header: 'Last activity',
      // The login count shares the cell: ten columns do not fit a laptop screen.
      cell: ({ row }) => {
        const logins = row.original.totalUserLoginCount ?? 0;

        return (
          <div className="whitespace-nowrap">
            <p className="text-zinc-600">{formatDateTime(row.original.lastActivity, 'Never')}</p>
            <p className="text-xs text-zinc-500 tabular-nums">
              {logins.toLocaleString()} {logins === 1 ? 'login' : 'logins'}
            </p>
          </div>
        );
      },
    },
    {
      id: 'expirationDate', meta: { priority: 4, size: 120 },
      accessorKey: 'expirationDate',
      header: 'Expires',
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDate(row.original.expirationDate, 'Never')}</span>,
    },
    {
      id: 'createdDate', meta: { priority: 7, size: 120 },
      accessorKey: 'createdDate',
      header: 'Created',
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDate(row.original.createdDate)}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const customer = row.original;
        const act = (kind: ActionKind) => () => onAction({ kind, customer });

        return (
          <RowActions label={`Actions for ${customer.name}`}>
            <DropdownMenuItem onSelect={act('edit')}>Edit</DropdownMenuItem>
            <DropdownMenuItem onSelect={act('expiration')}>Set expiration date</DropdownMenuItem>
            <DropdownMenuItem onSelect={act('restrict')}>{customer.restricted ? 'Unrestrict' : 'Restrict'}</DropdownMenuItem>
            {isAdmin ? (
              <>
                <DropdownMenuSeparator />
                {customer.subreseller ? (
                  <DropdownMenuItem onSelect={act('demote')}>Remove network-owner privilege</DropdownMenuItem>
                ) : (
                  <DropdownMenuItem onSelect={act('promote')}>Promote to network owner</DropdownMenuItem>
                )}
                {customer.subreseller ? null : <DropdownMenuItem onSelect={act('move')}>Move to network owner…</DropdownMenuItem>}
              </>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem className={dangerItem} onSelect={act('delete')}>
              Delete…
            </DropdownMenuItem>
          </RowActions>
        );
      },
    },
  ];
}

export function CustomersPage() {
  const me = useCurrentUser();
  const isNetworkOwner = useIsNetworkOwner();
  const isAdmin = me.role === 'ADMIN';
  const allowed = canManageCustomers(me.role, isNetworkOwner);
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<CustomerAction | null>(null);

  return (
    <>
      <PageHeader
        title="Customers"
        description={isAdmin ? 'Every tenant of the platform, and the network owners that manage some of them.' : 'The customers of your network.'}
        actions={
          allowed ? (
            <UiElement name="newUi.customers.create">
              <Button onClick={() => setCreating(true)}>
                <PlusIcon className="size-4" />
                New customer
              </Button>
            </UiElement>
          ) : null
        }
      />
      {allowed ? (
        <>
          <CustomersTable isAdmin={isAdmin} onAction={setAction} onCreate={() => setCreating(true)} />
          <CustomerFormDialog open={creating} customer={null} isAdmin={isAdmin} onOpenChange={setCreating} />
          <CustomerActionDialogs action={action} isAdmin={isAdmin} onDone={() => setAction(null)} />
        </>
      ) : (
        <Alert tone="info">Customers are managed by Super Administrators and by the administrators of a network owner.</Alert>
      )}
    </>
  );
}

function CustomerActionDialogs({ action, isAdmin, onDone }: { action: CustomerAction | null; isAdmin: boolean; onDone: () => void }) {
  const save = useSaveCustomer();
  const remove = useDeleteCustomer();
  const change = useNetworkOwnerChange();
  const of = (kind: ActionKind) => (action?.kind === kind ? action.customer : null);
  const close = (open: boolean) => (open ? undefined : onDone());
  const restricting = of('restrict');
  const promoting = of('promote');
  const demoting = of('demote');
  const deleting = of('delete');

  return (
    <>
      <CustomerFormDialog open={of('edit') !== null} customer={of('edit')} isAdmin={isAdmin} onOpenChange={close} />
      <ExpirationDialog customer={of('expiration')} onOpenChange={close} />
      <MoveDialog customer={of('move')} onOpenChange={close} />
      <ConfirmDialog
        open={restricting !== null}
        onOpenChange={close}
        title={restricting?.restricted ? 'Unrestrict customer' : 'Restrict customer'}
        destructive={!restricting?.restricted}
        confirmLabel={restricting?.restricted ? 'Unrestrict' : 'Restrict'}
        description={
          restricting?.restricted
            ? `${restricting.name} and its users get access again.`
            : `All access of ${restricting?.name ?? ''} is blocked and its users are signed out at once.`
        }
        onConfirm={() => save.mutateAsync({ id: restricting!.id, body: { restricted: !restricting!.restricted } })}
      />
      <ConfirmDialog
        open={promoting !== null}
        onOpenChange={close}
        title="Promote to network owner"
        confirmLabel="Promote"
        description={`${promoting?.name ?? ''} will be able to create and manage customers of its own.`}
        onConfirm={() => change.mutateAsync({ id: promoting!.id, action: 'promote' })}
      />
      <ConfirmDialog
        open={demoting !== null}
        onOpenChange={close}
        title="Remove network-owner privilege"
        confirmLabel="Remove privilege"
        destructive
        description={`${demoting?.name ?? ''} becomes a plain customer. This is refused while it still owns customers.`}
        onConfirm={() => change.mutateAsync({ id: demoting!.id, action: 'remove' })}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={close}
        title="Delete customer"
        confirmLabel="Delete customer"
        destructive
        typeToConfirm={deleting?.name ?? ''}
        description={
          <>
            <span className="font-medium text-zinc-800">{deleting?.name}</span> is deleted with all its devices, content, datasources, campaigns
            and users. This cannot be undone.
          </>
        }
        onConfirm={() => remove.mutateAsync(deleting!.id)}
      />
    </>
  );
}

function CustomersTable({ isAdmin, onAction, onCreate }: { isAdmin: boolean; onAction: (a: CustomerAction) => void; onCreate: () => void }) {
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useCustomers({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const columns = useMemo(() => buildColumns(isAdmin, onAction), [isAdmin, onAction]);

  return (
    <ResourceList
      identity={{ name: 'customers', noun: { one: 'customer', other: 'customers' } }}
      list={list}
      query={query}
      columns={columns}
      getRowId={(c) => String(c.id)}
      sortable={SORTABLE}
      search={{ label: 'Search customers by name', placeholder: 'Search by name' }}
      errorTitle="The customers could not be loaded."
      empty={{
        icon: <BriefcaseIcon className="size-5 text-zinc-500" />,
        title: 'No customers yet',
        action: (
          <UiElement name="newUi.customers.create">
            <Button size="sm" onClick={onCreate}>
              New customer
            </Button>
          </UiElement>
        ),
      }}
    />
  );
}

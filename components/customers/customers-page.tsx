'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
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
import type { Customer } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canManageCustomers } from '@/lib/auth/permissions';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'licenseTier', 'vertical', 'restricted', 'lastActivity', 'expirationDate', 'createdDate'] as const;

type ActionKind = 'edit' | 'expiration' | 'restrict' | 'promote' | 'demote' | 'move' | 'delete';
type CustomerAction = { kind: ActionKind; customer: Customer };

const dangerItem = 'text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800';

function isExpired(customer: Customer): boolean {
  return Boolean(customer.expirationDate && new Date(customer.expirationDate).getTime() < Date.now());
}

/** What the columns need to word their cells: the catalogue, the label table and formats. */
type Words = { t: Translate<'customers'>; label: Label; format: ReturnType<typeof useFormat> };

function buildColumns({ t, label, format }: Words, isAdmin: boolean, onAction: (a: CustomerAction) => void): ColumnDef<Customer>[] {
  return [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('list.columns.name'),
      cell: ({ row }) => (
        <div className="min-w-40" translate="no">
          <p className="font-medium text-zinc-900">{row.original.name}</p>
          {row.original.location || row.original.country ? (
            <p className="text-xs text-zinc-500">{[row.original.location, row.original.country].filter(Boolean).join(', ')}</p>
          ) : null}
        </div>
      ),
    },
    {
      id: 'licenseTier',
      meta: { priority: 2, size: 100 },
      accessorKey: 'licenseTier',
      header: t('list.columns.tier'),
      cell: ({ row }) => <Badge>{label('licenseTier', row.original.licenseTier)}</Badge>,
    },
    {
      id: 'vertical',
      meta: { priority: 5, size: 120 },
      accessorKey: 'vertical',
      header: t('list.columns.vertical'),
      cell: ({ row }) => <span className="text-zinc-600">{label('vertical', row.original.vertical)}</span>,
    },
    {
      id: 'networkOwner',
      meta: { priority: 6, size: 140 },
      header: t('list.columns.networkOwner'),
      enableSorting: false,
      cell: ({ row }) =>
        row.original.subreseller ? (
          <Badge tone="brand">{t('list.networkOwner')}</Badge>
        ) : (
          <span className="whitespace-nowrap text-zinc-600">
            {row.original.ownerSubresellerName ?? (row.original.ownerSubresellerId ? `#${row.original.ownerSubresellerId}` : '—')}
          </span>
        ),
    },
    {
      id: 'restricted',
      meta: { priority: 1, size: 110 },
      accessorKey: 'restricted',
      header: t('list.columns.status'),
      cell: ({ row }) =>
        row.original.restricted ? (
          <Badge tone="danger">{t('list.restricted')}</Badge>
        ) : isExpired(row.original) ? (
          <Badge tone="warning">{t('list.expired')}</Badge>
        ) : (
          <Badge tone="success">{t('list.active')}</Badge>
        ),
    },
    {
      id: 'lastActivity',
      meta: { priority: 3, size: 170 },
      accessorKey: 'lastActivity',
      header: t('list.columns.lastActivity'),
      // The login count shares the cell: ten columns do not fit a laptop screen.
      cell: ({ row }) => {
        const logins = row.original.totalUserLoginCount ?? 0;

        return (
          <div className="whitespace-nowrap">
            <p className="text-zinc-600">{format.dateTime(row.original.lastActivity, t('list.never'))}</p>
            <p className="text-xs text-zinc-500 tabular-nums">{t('list.logins', { count: logins })}</p>
          </div>
        );
      },
    },
    {
      id: 'expirationDate',
      meta: { priority: 4, size: 120 },
      accessorKey: 'expirationDate',
      header: t('list.columns.expires'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-zinc-600">{format.date(row.original.expirationDate, t('list.never'))}</span>
      ),
    },
    {
      id: 'createdDate',
      meta: { priority: 7, size: 120 },
      accessorKey: 'createdDate',
      header: t('list.columns.created'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.date(row.original.createdDate)}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('list.columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const customer = row.original;
        const act = (kind: ActionKind) => () => onAction({ kind, customer });

        return (
          <RowActions label={t('list.actionsFor', { name: customer.name })}>
            <DropdownMenuItem onSelect={act('edit')}>{t('actions.edit')}</DropdownMenuItem>
            <DropdownMenuItem onSelect={act('expiration')}>{t('actions.expiration')}</DropdownMenuItem>
            <DropdownMenuItem onSelect={act('restrict')}>
              {customer.restricted ? t('actions.unrestrict') : t('actions.restrict')}
            </DropdownMenuItem>
            {isAdmin ? (
              <>
                <DropdownMenuSeparator />
                {customer.subreseller ? (
                  <DropdownMenuItem onSelect={act('demote')}>{t('actions.demote')}</DropdownMenuItem>
                ) : (
                  <DropdownMenuItem onSelect={act('promote')}>{t('actions.promote')}</DropdownMenuItem>
                )}
                {customer.subreseller ? null : <DropdownMenuItem onSelect={act('move')}>{t('actions.move')}</DropdownMenuItem>}
              </>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem className={dangerItem} onSelect={act('delete')}>
              {t('actions.delete')}
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
  const t = useTranslations('customers');

  return (
    <>
      <PageHeader
        title={t('title')}
        description={isAdmin ? t('page.descriptionAdmin') : t('page.descriptionOwner')}
        actions={
          allowed ? (
            <UiElement name="newUi.customers.create">
              <Button onClick={() => setCreating(true)}>
                <PlusIcon className="size-4" />
                {t('page.new')}
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
        <Alert tone="info">{t('page.notAllowed')}</Alert>
      )}
    </>
  );
}

function CustomerActionDialogs({ action, isAdmin, onDone }: { action: CustomerAction | null; isAdmin: boolean; onDone: () => void }) {
  const save = useSaveCustomer();
  const remove = useDeleteCustomer();
  const change = useNetworkOwnerChange();
  const t = useTranslations('customers');
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
        title={restricting?.restricted ? t('restrictDialog.unrestrictTitle') : t('restrictDialog.restrictTitle')}
        destructive={!restricting?.restricted}
        confirmLabel={restricting?.restricted ? t('actions.unrestrict') : t('actions.restrict')}
        description={
          restricting?.restricted
            ? t('restrictDialog.unrestrictBody', { name: restricting.name })
            : t('restrictDialog.restrictBody', { name: restricting?.name ?? '' })
        }
        onConfirm={() => save.mutateAsync({ id: restricting!.id, body: { restricted: !restricting!.restricted } })}
      />
      <ConfirmDialog
        open={promoting !== null}
        onOpenChange={close}
        title={t('promoteDialog.title')}
        confirmLabel={t('promoteDialog.confirm')}
        description={t('promoteDialog.body', { name: promoting?.name ?? '' })}
        onConfirm={() => change.mutateAsync({ id: promoting!.id, action: 'promote' })}
      />
      <ConfirmDialog
        open={demoting !== null}
        onOpenChange={close}
        title={t('demoteDialog.title')}
        confirmLabel={t('demoteDialog.confirm')}
        destructive
        description={t('demoteDialog.body', { name: demoting?.name ?? '' })}
        onConfirm={() => change.mutateAsync({ id: demoting!.id, action: 'remove' })}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={close}
        title={t('deleteDialog.title')}
        confirmLabel={t('deleteDialog.confirm')}
        destructive
        typeToConfirm={deleting?.name ?? ''}
        description={t.rich('deleteDialog.body', {
          name: deleting?.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span>,
        })}
        onConfirm={() => remove.mutateAsync(deleting!.id)}
      />
    </>
  );
}

function CustomersTable({
  isAdmin,
  onAction,
  onCreate,
}: {
  isAdmin: boolean;
  onAction: (a: CustomerAction) => void;
  onCreate: () => void;
}) {
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useCustomers({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const t = useTranslations('customers');
  const label = useLabel();
  const format = useFormat();
  const columns = useMemo(() => buildColumns({ t, label, format }, isAdmin, onAction), [t, label, format, isAdmin, onAction]);

  return (
    <ResourceList
      identity={{ name: 'customers', noun: { one: t('noun.one'), other: t('noun.other') } }}
      list={list}
      query={query}
      columns={columns}
      getRowId={(c) => String(c.id)}
      sortable={SORTABLE}
      search={{ label: t('list.searchLabel'), placeholder: t('list.searchPlaceholder') }}
      errorTitle={t('list.loadError')}
      empty={{
        icon: <BriefcaseIcon className="size-5 text-zinc-500" />,
        title: t('list.emptyTitle'),
        action: (
          <UiElement name="newUi.customers.create">
            <Button size="sm" onClick={onCreate}>
              {t('page.new')}
            </Button>
          </UiElement>
        ),
      }}
    />
  );
}

'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { LicenceSummary } from '@/components/licences/licence-summary';
import { LicenceTabs } from '@/components/licences/licence-tabs';
import {
  ApproveOrderDialog,
  CreateOrderDialog,
  DeleteOrderDialog,
  EditOrderDialog,
  OrderLicencesDialog,
} from '@/components/licences/order-dialogs';
import { NoAccess } from '@/components/settings/no-access';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { FilterSelect } from '@/components/ui/field';
import { DownloadIcon, KeyIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import {
  licenseOrdersCsvHref,
  ORDER_STATE_FILTERS,
  useAwaitingApprovalCount,
  useLicenseOrders,
  type LicenseOrder,
  type OrderStateFilter,
} from '@/lib/api/licences';
import { useIsNetworkOwner } from '@/lib/api/network-owner';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'orderDate', direction: 'desc' };
const SORTABLE = ['orderDate', 'deviceLicenseCount', 'assignedDeviceCount', 'approved', 'poNumber'] as const;
const FILTERS = { state: choiceFilter('state', ORDER_STATE_FILTERS) };

type OrderAction = { kind: 'approve' | 'reject' | 'delete' | 'edit'; order: LicenseOrder };

type ColumnOptions = {
  t: Translate<'licences.orders'>;
  label: Label;
  format: ReturnType<typeof useFormat>;
  isAdmin: boolean;
  showCustomer: boolean;
  /** Screens are listed per tenant: the link to an order's screens needs the tenant chosen (or the caller's own). */
  canLinkScreens: boolean;
  onAction: (action: OrderAction) => void;
};

/** How an order's pay type and recurrence read: "One-time", "Subscription, every 3 months". */
function payWords(order: LicenseOrder, t: Translate<'licences.orders'>, label: Label): string | null {
  if (!order.licensePayType) return null;
  const pay = label('licensePayType', order.licensePayType);
  if (!order.recurrence) return pay;

  return t('payEvery', { pay, frequency: order.recurrence.frequency, period: order.recurrence.recurrenceType });
}

function orderColumns({ t, label, format, isAdmin, showCustomer, canLinkScreens, onAction }: ColumnOptions): ColumnDef<LicenseOrder>[] {
  const columns: Array<ColumnDef<LicenseOrder> | null> = [
    // The first column never hides: the others' values are listed under it on a narrow window (DataTable).
    showCustomer
      ? {
          id: 'customer',
          meta: { size: 200 },
          enableSorting: false,
          header: t('columns.customer'),
          cell: ({ row }) => (
            <span className="block max-w-56 truncate font-medium text-zinc-900" translate="no">
              {row.original.customer?.name ?? `#${row.original.customerId}`}
            </span>
          ),
        }
      : null,
    {
      id: 'orderDate',
      meta: { size: 130 },
      header: t('columns.orderDate'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-900">{format.date(row.original.orderDate)}</span>,
    },
    {
      id: 'licenseType',
      meta: { size: 170, priority: 2 },
      enableSorting: false,
      header: t('columns.type'),
      cell: ({ row }) => {
        const pay = payWords(row.original, t, label);

        return (
          <div className="min-w-0">
            <p className={row.original.licenseType ? 'text-zinc-900' : 'text-zinc-400'}>
              {row.original.licenseType ? label('licenseType', row.original.licenseType) : t('anyType')}
            </p>
            {pay || row.original.licensePackage?.name ? (
              <p className="truncate text-xs text-zinc-500">{[row.original.licensePackage?.name, pay].filter(Boolean).join(' · ')}</p>
            ) : null}
          </div>
        );
      },
    },
    {
      id: 'deviceLicenseCount',
      meta: { size: 90 },
      header: t('columns.count'),
      cell: ({ row }) => <span className="text-zinc-900 tabular-nums">{format.number(row.original.deviceLicenseCount ?? 0)}</span>,
    },
    {
      id: 'assignedDeviceCount',
      meta: { size: 110, priority: 3 },
      header: t('columns.assigned'),
      cell: ({ row }) => {
        const order = row.original;
        const text = t('assignedOf', { assigned: order.assignedDeviceCount ?? 0, count: order.deviceLicenseCount ?? 0 });
        if (!canLinkScreens || !order.approved) return <span className="whitespace-nowrap text-zinc-600 tabular-nums">{text}</span>;

        return (
          <Link
            href={`/screens?licenseOrder=${order.id}`}
            className="whitespace-nowrap text-brand-700 tabular-nums hover:underline"
            title={t('screensOf')}
            aria-label={t('screensOfCount', { text })}
          >
            {text}
          </Link>
        );
      },
    },
    {
      id: 'approved',
      meta: { size: 150 },
      header: t('columns.state'),
      cell: ({ row }) =>
        row.original.approved ? <Badge tone="success">{t('approved')}</Badge> : <Badge tone="warning">{t('awaiting')}</Badge>,
    },
    {
      id: 'poNumber',
      meta: { size: 120, priority: 4 },
      header: t('columns.poNumber'),
      cell: ({ row }) => <span className="block max-w-32 truncate text-zinc-600">{row.original.poNumber ?? '—'}</span>,
    },
    {
      id: 'comment',
      meta: { size: 180, priority: 5 },
      enableSorting: false,
      header: t('columns.comment'),
      cell: ({ row }) => (
        <p className="max-w-56 truncate text-zinc-600" title={row.original.comment ?? undefined}>
          {row.original.comment ?? '—'}
        </p>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const order = row.original;
        const name = t('actionsFor', { date: format.date(order.orderDate) });
        if (isAdmin)
          return (
            <RowActions label={name}>
              {!order.approved ? (
                <>
                  <DropdownMenuItem onSelect={() => onAction({ kind: 'approve', order })}>{t('approve')}</DropdownMenuItem>
                  <DropdownMenuItem
                    className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                    onSelect={() => onAction({ kind: 'reject', order })}
                  >
                    {t('reject')}
                  </DropdownMenuItem>
                  <DropdownMenuSeparator />
                </>
              ) : null}
              <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', order })}>{t('edit')}</DropdownMenuItem>
            </RowActions>
          );
        if (order.approved) return null;

        return (
          <RowActions label={name}>
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => onAction({ kind: 'delete', order })}
            >
              {t('delete')}
            </DropdownMenuItem>
          </RowActions>
        );
      },
    },
  ];

  return columns.filter((column): column is ColumnDef<LicenseOrder> => column !== null);
}

/**
 * Licences (spec 3 "License order"): a tenant's OWNER sees its orders and licences by type and orders more; a network
 * owner sees its members' (the switcher's network, or one member) and orders for them; the super admin sees every
 * tenant's orders, approves or rejects them, creates priced orders and exports them.
 */
export function LicencesPage() {
  const t = useTranslations('licences');
  const me = useCurrentUser();
  const isAdmin = me.role === 'ADMIN';
  const isNetworkOwner = useIsNetworkOwner();
  const { tenant, acrossTenants, customerId } = useTenant();
  if (!hasRole(me.role, 'OWNER')) return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;

  return (
    <LicenceOrders
      isAdmin={isAdmin}
      isNetworkOwner={isNetworkOwner}
      tenant={tenant}
      acrossTenants={acrossTenants}
      selectedCustomerId={customerId}
    />
  );
}

function LicenceOrders({
  isAdmin,
  isNetworkOwner,
  tenant,
  acrossTenants,
  selectedCustomerId,
}: {
  isAdmin: boolean;
  isNetworkOwner: boolean;
  tenant: { id: number; name: string } | null;
  acrossTenants: boolean;
  selectedCustomerId: number | undefined;
}) {
  const t = useTranslations('licences');
  const ordersWords = useTranslations('licences.orders');
  const label = useLabel();
  const format = useFormat();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const query = useLicenseOrders({
    page: params.page,
    size: params.size,
    sort: sortParam(params.sort),
    text: params.text,
    state: params.state,
  });
  const awaiting = useAwaitingApprovalCount({ enabled: isAdmin });
  const { notice, show, clear } = useNotice();
  const [isOrdering, setIsOrdering] = useState(false);
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<OrderAction | null>(null);
  const columns = useMemo(
    () =>
      orderColumns({
        t: ordersWords,
        label,
        format,
        isAdmin,
        showCustomer: isAdmin || isNetworkOwner,
        canLinkScreens: !acrossTenants,
        onAction: setAction,
      }),
    [ordersWords, label, format, isAdmin, isNetworkOwner, acrossTenants],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  const description = acrossTenants
    ? isAdmin
      ? t('descriptionAll')
      : t('descriptionNetwork')
    : t.rich('descriptionOf', {
        name: tenant?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      });

  return (
    <>
      <PageHeader
        title={t('title')}
        description={description}
        actions={
          isAdmin ? (
            <>
              <Button variant="secondary" asChild>
                <a href={licenseOrdersCsvHref(selectedCustomerId)} download>
                  <DownloadIcon className="size-4" />
                  {ordersWords('csv')}
                </a>
              </Button>
              <Button onClick={() => setIsCreating(true)}>
                <PlusIcon className="size-4" />
                {ordersWords('create')}
              </Button>
            </>
          ) : (
            <Button onClick={() => setIsOrdering(true)}>
              <PlusIcon className="size-4" />
              {ordersWords('new')}
            </Button>
          )
        }
      />
      <LicenceTabs current="orders" />
      {isAdmin ? (
        <CreateOrderDialog
          open={isCreating}
          onOpenChange={setIsCreating}
          tenant={tenant}
          onCreated={(order) => show({ tone: 'info', text: t('create.created', { count: order.deviceLicenseCount ?? 0 }) })}
        />
      ) : (
        <OrderLicencesDialog
          open={isOrdering}
          onOpenChange={setIsOrdering}
          chooseCustomer={isNetworkOwner && acrossTenants}
          onOrdered={(order) => show({ tone: 'info', text: t('order.ordered', { count: order.deviceLicenseCount ?? 0 }) })}
        />
      )}
      <ApproveOrderDialog
        order={action?.kind === 'approve' ? action.order : null}
        onOpenChange={close}
        onApproved={(order) => show({ tone: 'info', text: t('approve.done', { count: order.deviceLicenseCount ?? 0 }) })}
      />
      <DeleteOrderDialog
        order={action?.kind === 'reject' || action?.kind === 'delete' ? action.order : null}
        mode={action?.kind === 'reject' ? 'reject' : 'delete'}
        onOpenChange={close}
        onDeleted={() => show({ tone: 'info', text: action?.kind === 'reject' ? t('reject.done') : t('delete.done') })}
      />
      <EditOrderDialog order={action?.kind === 'edit' ? action.order : null} onOpenChange={close} />

      {tenant && !acrossTenants ? (
        <LicenceSummary customerId={tenant.id} />
      ) : (
        <p className="mb-4 text-sm text-zinc-500">{t('summary.chooseTenant')}</p>
      )}
      {isAdmin && (awaiting.data ?? 0) > 0 && params.state !== 'awaiting' ? (
        <Alert
          tone="info"
          className="mb-4"
          action={
            <Button size="sm" variant="secondary" onClick={() => update({ state: 'awaiting' })}>
              {ordersWords('showAwaiting')}
            </Button>
          }
        >
          <span data-testid="licences-awaiting">{ordersWords('awaitingNotice', { count: awaiting.data ?? 0 })}</span>
        </Alert>
      ) : null}
      <ResourceList
        identity={{ name: 'licence-orders', noun: { one: ordersWords('noun.one'), other: ordersWords('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(order) => String(order.id)}
        sortable={SORTABLE}
        search={{
          label: ordersWords('search'),
          placeholder: isAdmin || isNetworkOwner ? ordersWords('searchPlaceholderAll') : ordersWords('searchPlaceholder'),
        }}
        filters={
          <div className="shrink-0">
            <FilterSelect
              aria-label={ordersWords('state.label')}
              value={params.state}
              onChange={(e) => update({ state: e.target.value as OrderStateFilter })}
            >
              {ORDER_STATE_FILTERS.map((state) => (
                <option key={state} value={state}>
                  {ordersWords(`state.${state}`)}
                </option>
              ))}
            </FilterSelect>
          </div>
        }
        notices={<NoticeAlert notice={notice} onDismiss={clear} />}
        isFiltered={params.state !== 'all'}
        onClearFilters={() => update({ state: 'all' })}
        errorTitle={ordersWords('loadError')}
        filteredHint={ordersWords('filteredHint')}
        empty={{
          icon: <KeyIcon className="size-5 text-zinc-500" />,
          title: ordersWords('emptyTitle'),
          body: isAdmin ? ordersWords('emptyAdmin') : ordersWords('emptyText'),
          action: isAdmin ? null : (
            <Button size="sm" onClick={() => setIsOrdering(true)}>
              <PlusIcon className="size-4" />
              {ordersWords('new')}
            </Button>
          ),
        }}
      />
    </>
  );
}

'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import {
  EnableChannelDialog,
  RotateSecretDialog,
  SecretDialog,
  TestResultDialog,
  type ShownSecret,
} from '@/components/notification-channels/notification-channel-actions';
import {
  DeleteNotificationChannelDialog,
  NotificationChannelFormDialog,
} from '@/components/notification-channels/notification-channel-dialogs';
import { NotificationDeliveriesPanel } from '@/components/notification-channels/notification-deliveries-panel';
import { NoAccess } from '@/components/settings/no-access';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { BellIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useTenantNames, type TenantName } from '@/lib/api/customers';
import { useNotificationChannels, type NotificationChannel } from '@/lib/api/notification-channels';
import { useCurrentUser } from '@/lib/auth/current-user';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import type { Translate } from '@/lib/i18n/translate';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'channelType'] as const;

type ChannelAction = { kind: 'edit' | 'delete' | 'rotate' | 'test' | 'enable' | 'deliveries'; channel: NotificationChannel };

/**
 * Every channel operation needs TECHNICIAN (spec 2 "Alert rules, notification channels, alerts"). An ADMIN or network
 * owner with all tenants shown only reads: a new channel needs a tenant.
 */
function useChannelAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;
  const isTechnician = hasRole(me.role, 'TECHNICIAN');

  return { tenant, isTechnician, needsTenant, canManage: isTechnician && !needsTenant };
}

function buildColumns({
  t,
  tenantName,
  canManage,
  canTest,
  onAction,
}: {
  t: Translate<'notificationChannels'>;
  tenantName: TenantName | null;
  canManage: boolean;
  /** Testing and reading the log need the channel visible only (a read-only team member may). */
  canTest: boolean;
  onAction: (action: ChannelAction) => void;
}): ColumnDef<NotificationChannel>[] {
  const columns: ColumnDef<NotificationChannel>[] = [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => {
        const writable = canManage && !row.original.readOnly;

        return (
          <div className="min-w-0">
            {writable ? (
              <button
                type="button"
                className="cursor-pointer text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                onClick={() => onAction({ kind: 'edit', channel: row.original })}
              >
                {row.original.name}
              </button>
            ) : (
              <span className="font-medium text-zinc-900">{row.original.name}</span>
            )}
            {row.original.readOnly ? <Badge className="ml-2">{t('readOnly')}</Badge> : null}
            {row.original.enabled === false ? (
              <>
                <Badge tone="danger" className="ml-2">
                  {t('disabled')}
                </Badge>
                {row.original.disabledReason ? <p className="mt-0.5 text-xs text-red-700">{row.original.disabledReason}</p> : null}
              </>
            ) : null}
          </div>
        );
      },
    },
    {
      id: 'channelType',
      meta: { priority: 1, size: 110 },
      accessorKey: 'channelType',
      header: t('columns.type'),
      cell: ({ row }) => (row.original.channelType ? <Badge tone="brand">{t(`types.${row.original.channelType}`)}</Badge> : null),
    },
    {
      id: 'notify',
      meta: { priority: 2, size: 220 },
      header: t('columns.recipients'),
      enableSorting: false,
      cell: ({ row }) => {
        const notify = row.original.notify ?? [];
        // The users of a console notification are ids: their number says more than the ids.
        if (row.original.channelType === 'USER_NOTIFICATION')
          return <p className="text-zinc-600">{t('userCount', { count: notify.length })}</p>;

        return (
          <p className="max-w-72 truncate text-zinc-600" title={notify.join(', ')}>
            {notify.join(', ')}
          </p>
        );
      },
    },
    {
      id: 'comment',
      meta: { priority: 3, size: 180 },
      header: t('columns.comment'),
      enableSorting: false,
      cell: ({ row }) => <p className="max-w-xs truncate text-zinc-600">{row.original.comment ?? ''}</p>,
    },
  ];
  if (tenantName) {
    columns.push({
      id: 'tenant',
      meta: { priority: 4, size: 140 },
      header: t('columns.tenant'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantName(row.original.customerId)}</span>,
    });
  }
  columns.push({
    id: 'actions',
    header: () => <span className="sr-only">{t('columns.actions')}</span>,
    enableSorting: false,
    cell: ({ row }) => {
      const channel = row.original;
      const isWritable = canManage && !channel.readOnly;
      if (!canTest) return null;

      return (
        <RowActions label={t('actionsFor', { name: channel.name })}>
          <DropdownMenuItem onSelect={() => onAction({ kind: 'test', channel })}>{t('sendTest')}</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => onAction({ kind: 'deliveries', channel })}>{t('deliveryLog')}</DropdownMenuItem>
          {isWritable ? (
            <>
              {channel.enabled === false ? (
                <DropdownMenuItem onSelect={() => onAction({ kind: 'enable', channel })}>{t('enableAgain')}</DropdownMenuItem>
              ) : null}
              {channel.channelType === 'WEBHOOK' ? (
                <DropdownMenuItem onSelect={() => onAction({ kind: 'rotate', channel })}>{t('rotateSecret')}</DropdownMenuItem>
              ) : null}
              <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', channel })}>{t('edit')}</DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                onSelect={() => onAction({ kind: 'delete', channel })}
              >
                {t('delete')}
              </DropdownMenuItem>
            </>
          ) : null}
        </RowActions>
      );
    },
  });

  return columns;
}

export function NotificationChannelsPage() {
  const t = useTranslations('notificationChannels');
  const access = useChannelAccess();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useNotificationChannels(
    { page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text },
    { enabled: access.isTechnician },
  );
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<ChannelAction | null>(null);
  const [shownSecret, setShownSecret] = useState<ShownSecret | null>(null);
  const tenantName = useTenantNames(query.data?.content.map((c) => c.customerId) ?? [], access.needsTenant);
  const columns = useMemo(
    () =>
      buildColumns({
        t,
        tenantName: access.needsTenant ? tenantName : null,
        canManage: access.canManage,
        canTest: access.isTechnician,
        onAction: setAction,
      }),
    [t, access.needsTenant, access.canManage, access.isTechnician, tenantName],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  const chosen = (kind: ChannelAction['kind']) => (action?.kind === kind ? action.channel : null);
  if (!access.isTechnician) return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          access.tenant
            ? t.rich('descriptionOf', {
                name: access.tenant.name,
                strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
              })
            : t('description')
        }
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ) : null
        }
      />
      {access.canManage ? (
        <>
          <NotificationChannelFormDialog
            open={isCreating}
            onOpenChange={setIsCreating}
            tenantName={access.tenant?.name}
            onSecret={setShownSecret}
          />
          <NotificationChannelFormDialog
            open={action?.kind === 'edit'}
            channel={chosen('edit')}
            onOpenChange={close}
            onSecret={setShownSecret}
          />
          <DeleteNotificationChannelDialog channel={chosen('delete')} onOpenChange={close} />
          <RotateSecretDialog channel={chosen('rotate')} onOpenChange={close} onRotated={setShownSecret} />
          <EnableChannelDialog channel={chosen('enable')} onOpenChange={close} />
          <SecretDialog shown={shownSecret} onClose={() => setShownSecret(null)} />
        </>
      ) : null}
      <TestResultDialog channel={chosen('test')} onClose={() => setAction(null)} />
      <NotificationDeliveriesPanel channel={chosen('deliveries')} onClose={() => setAction(null)} />

      <ResourceList
        identity={{ name: 'notification-channels', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(channel) => String(channel.id)}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        notices={
          access.needsTenant ? (
            <Alert tone="info" title={t('chooseTenant')}>
              {t('readOnlyAcross')}
            </Alert>
          ) : null
        }
        errorTitle={t('loadError')}
        empty={{
          icon: <BellIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: access.canManage ? (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ) : null,
        }}
      />
    </>
  );
}

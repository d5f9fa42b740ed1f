'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { DeviceStatus } from '@/components/devices/device-status';
import { ScreenAlertBadge } from '@/components/devices/screen-alert-badge';
import { Badge } from '@/components/ui/badge';
import { ScreenStatusFilter } from '@/components/devices/screen-status-filter';
import { MonitorIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { deviceResource, deviceTenant, STATUS_FILTERS, type Device } from '@/lib/api/devices';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TenantSelection } from '@/lib/tenant/tenant-cookie';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
/** `customer.name` sorts by the tenant's name (the API's relation sort). */
const SORTABLE = ['name', 'customer.name', 'deviceStatus', 'lastActivity'] as const;
const FILTERS = { status: choiceFilter('status', STATUS_FILTERS) };

/**
 * The screens of every tenant the caller manages, in one list (ADMIN under "All tenants", a network owner's OWNER
 * under its whole network): the tenant column, the status filter, search, sort and paging all in the API. A screen
 * opens in its tenant: the switcher selects it, so the screen page and everything it links to work in that tenant.
 */
export function TenantsScreens() {
  const t = useTranslations('devices');
  const format = useFormat();
  // What "no tenant chosen" covers: every tenant (ADMIN) or the caller's network (useTenant's `all`).
  const scope = useCurrentUser().role === 'ADMIN' ? 'tenants' : 'network';
  const { selectTenant } = useTenant();
  const screensNoun = useMemo(() => ({ one: t('noun.one'), other: t('noun.other') }), [t]);
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const query = deviceResource.useList({
    page: params.page,
    size: params.size,
    sort: sortParam(params.sort),
    text: params.text,
    status: params.status,
    acrossTenants: true,
  });
  const columns = useMemo(() => tenantsScreenColumns(selectTenant, t, format), [selectTenant, t, format]);

  return (
    <>
      <PageHeader title={t('title')} description={t('tenants.description', { scope })} />
      <ResourceList
        identity={{ name: 'screens', noun: screensNoun }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(device: Device) => device.id}
        sortable={SORTABLE}
        search={{ label: t('list.searchLabel'), placeholder: t('list.searchPlaceholder') }}
        filters={<ScreenStatusFilter value={params.status} onChange={(status) => update({ status })} />}
        isFiltered={params.status !== 'all'}
        onClearFilters={() => update({ status: 'all' })}
        errorTitle={t('list.loadError')}
        empty={{
          icon: <MonitorIcon className="size-5 text-zinc-500" />,
          title: t('list.emptyTop'),
          body: t('tenants.emptyBody', { scope }),
        }}
        filteredHint={t('list.filteredHint')}
      />
    </>
  );
}

function tenantsScreenColumns(
  selectTenant: (tenant: TenantSelection | null) => void,
  t: Translate<'devices'>,
  format: ReturnType<typeof useFormat>,
): ColumnDef<Device>[] {
  return [
    { id: 'deviceStatus', accessorKey: 'deviceStatus', header: t('status'), cell: ({ row }) => <DeviceStatus device={row.original} /> },
    {
      id: 'name',
      accessorKey: 'name',
      header: t('columns.screen'),
      cell: ({ row }) => {
        const device = row.original;
        const tenant = deviceTenant(device);

        return (
          <div className="min-w-0">
            {/* The screen page works in one tenant: choose the screen's before it opens. */}
            <Link
              href={`/screens/${device.id}`}
              onClick={() => tenant && selectTenant(tenant)}
              className="font-medium text-zinc-900 hover:text-brand-700 hover:underline"
            >
              {device.name || t('unnamed')}
            </Link>
            <ScreenAlertBadge device={device} className="ml-2 align-text-bottom" />
            {device.emergencyStatus ? (
              <Badge tone="danger" className="ml-2">
                {t('emergency')}
              </Badge>
            ) : null}
            {device.tags?.length ? <p className="mt-0.5 truncate text-xs text-zinc-500">{device.tags.join(', ')}</p> : null}
          </div>
        );
      },
    },
    {
      id: 'customer.name',
      accessorFn: (device) => device.customer?.name,
      header: t('columns.tenant'),
      cell: ({ row }) => (
        <span className="text-zinc-700" data-testid="screen-tenant">
          {deviceTenant(row.original)?.name ?? '—'}
        </span>
      ),
    },
    {
      id: 'folder',
      header: t('folder'),
      enableSorting: false,
      // A tenant's root folder (the only one of path length 1) is "All screens", as in its tree.
      cell: ({ row }) => {
        const { deviceGroup, deviceGroupPath } = row.original;
        const inRoot = !deviceGroup || (deviceGroupPath ?? '').split('/').length <= 1;

        return <span className="text-zinc-600">{inRoot ? t('allScreens') : (deviceGroup.name ?? '—')}</span>;
      },
    },
    {
      id: 'lastActivity',
      accessorKey: 'lastActivity',
      header: t('lastActivity'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.dateTime(row.original.lastActivity, t('never'))}</span>,
    },
  ];
}

'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo } from 'react';
import { DeviceStatus } from '@/components/devices/device-status';
import { Badge } from '@/components/ui/badge';
import { ScreenStatusFilter } from '@/components/devices/screen-status-filter';
import { MonitorIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { deviceResource, deviceTenant, STATUS_FILTERS, type Device } from '@/lib/api/devices';
import { formatDateTime } from '@/lib/format';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TenantSelection } from '@/lib/tenant/tenant-cookie';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
/** `customer.name` sorts by the tenant's name (the API's relation sort). */
const SORTABLE = ['name', 'customer.name', 'deviceStatus', 'lastActivity'] as const;
const FILTERS = { status: choiceFilter('status', STATUS_FILTERS) };
const SCREENS = { one: 'screen', other: 'screens' };

/**
 * The screens of every tenant the caller manages, in one list (ADMIN under "All tenants", a network owner's OWNER
 * under its whole network): the tenant column, the status filter, search, sort and paging all in the API. A screen
 * opens in its tenant: the switcher selects it, so the screen page and everything it links to work in that tenant.
 */
export function TenantsScreens() {
  const { all, selectTenant } = useTenant();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const query = deviceResource.useList({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text, status: params.status, acrossTenants: true });
  const columns = useMemo(() => tenantsScreenColumns(selectTenant), [selectTenant]);

  return (
    <>
      <PageHeader
        title="Screens"
        description={`Every screen of ${all.phrase}, with its tenant: whether it is online and when it was last heard from. Open a screen to work in its tenant; folders, new screens and commands are per tenant.`}
      />
      <ResourceList
        identity={{ name: 'screens', noun: SCREENS }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(device: Device) => device.id}
        sortable={SORTABLE}
        search={{ label: 'Search screens by name', placeholder: 'Search by name' }}
        filters={
          <ScreenStatusFilter value={params.status} onChange={(status) => update({ status })} />
        }
        isFiltered={params.status !== 'all'}
        onClearFilters={() => update({ status: 'all' })}
        errorTitle="The screens could not be loaded."
        empty={{
          icon: <MonitorIcon className="size-5 text-zinc-500" />,
          title: 'No screens yet',
          body: `None of ${all.phrase} has added a screen. Pick a tenant in the switcher above to add one there.`,
        }}
        filteredHint="Try other words, or clear the filters."
      />
    </>
  );
}

function tenantsScreenColumns(selectTenant: (tenant: TenantSelection | null) => void): ColumnDef<Device>[] {
  return [
    { id: 'deviceStatus', accessorKey: 'deviceStatus', header: 'Status', cell: ({ row }) => <DeviceStatus device={row.original} /> },
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Screen',
      cell: ({ row }) => {
        const device = row.original;
        const tenant = deviceTenant(device);

        return (
          <div className="min-w-0">
            {/* The screen page works in one tenant: choose the screen's before it opens. */}
            <Link href={`/screens/${device.id}`} onClick={() => tenant && selectTenant(tenant)} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
              {device.name || 'Unnamed screen'}
            </Link>
            {device.emergencyStatus ? <Badge tone="danger" className="ml-2">Emergency</Badge> : null}
            {device.tags?.length ? <p className="mt-0.5 truncate text-xs text-zinc-500">{device.tags.join(', ')}</p> : null}
          </div>
        );
      },
    },
    {
      id: 'customer.name',
      accessorFn: (device) => device.customer?.name,
      header: 'Tenant',
      cell: ({ row }) => <span className="text-zinc-700" data-testid="screen-tenant">{deviceTenant(row.original)?.name ?? '—'}</span>,
    },
    {
      id: 'folder',
      header: 'Folder',
      enableSorting: false,
      // A tenant's root folder (the only one of path length 1) is "All screens", as in its tree.
      cell: ({ row }) => {
        const { deviceGroup, deviceGroupPath } = row.original;
        const inRoot = !deviceGroup || (deviceGroupPath ?? '').split('/').length <= 1;

        return <span className="text-zinc-600">{inRoot ? 'All screens' : (deviceGroup.name ?? '—')}</span>;
      },
    },
    {
      id: 'lastActivity',
      accessorKey: 'lastActivity',
      header: 'Last activity',
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDateTime(row.original.lastActivity, 'Never')}</span>,
    },
  ];
}

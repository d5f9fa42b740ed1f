'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { AddScreenDialog } from '@/components/devices/add-screen-dialog';
import { DeviceStatus } from '@/components/devices/device-status';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Select } from '@/components/ui/field';
import { MonitorIcon, PlusIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { deviceResource, STATUS_FILTERS, useDeleteDevice, useDeviceCommand, type Device, type StatusFilter } from '@/lib/api/devices';
import { useCurrentUser } from '@/lib/auth/current-user';
import { formatDateTime } from '@/lib/format';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'deviceStatus', 'lastActivity'] as const;
const FILTERS = { status: choiceFilter('status', STATUS_FILTERS) };
const STATUS_LABELS: Record<StatusFilter, string> = { all: 'Any status', online: 'Online', offline: 'Offline' };

type ScreenAction = { kind: 'restart' | 'delete'; device: Device };

function buildColumns(onAction: ((action: ScreenAction) => void) | null): ColumnDef<Device>[] {
  const columns: ColumnDef<Device>[] = [
    { id: 'deviceStatus', accessorKey: 'deviceStatus', header: 'Status', cell: ({ row }) => <DeviceStatus device={row.original} /> },
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Screen',
      cell: ({ row }) => (
        <div className="min-w-0">
          <Link href={`/screens/${row.original.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
            {row.original.name || 'Unnamed screen'}
          </Link>
          {row.original.emergencyStatus ? (
            <Badge className="ml-2 bg-red-50 text-red-700 ring-red-200">Emergency</Badge>
          ) : null}
          {row.original.tags?.length ? <p className="mt-0.5 truncate text-xs text-zinc-500">{row.original.tags.join(', ')}</p> : null}
        </div>
      ),
    },
    { id: 'folder', header: 'Folder', enableSorting: false, cell: ({ row }) => <span className="text-zinc-600">{row.original.deviceGroup?.name ?? '—'}</span> },
    { id: 'content', header: 'Shows', enableSorting: false, cell: ({ row }) => <span className="text-zinc-600">{row.original.content?.name ?? 'Nothing assigned'}</span> },
    {
      id: 'lastActivity',
      accessorKey: 'lastActivity',
      header: 'Last activity',
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDateTime(row.original.lastActivity, 'Never')}</span>,
    },
  ];
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => (
        <RowActions label={`Actions for ${row.original.name}`}>
          <DropdownMenuItem asChild>
            <Link href={`/screens/${row.original.id}`}>Details and commands</Link>
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => onAction({ kind: 'restart', device: row.original })}>Restart</DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onAction({ kind: 'delete', device: row.original })}>
            Delete
          </DropdownMenuItem>
        </RowActions>
      ),
    });
  }

  return columns;
}

/** Screens belong to one tenant: the page asks a switcher to choose one first, like media and content. */
export function ScreensPage() {
  const { canSwitch, tenant, all } = useTenant();
  if (canSwitch && !tenant) {
    return (
      <>
        <PageHeader title="Screens" description="The players of your signage network." />
        <Alert tone="info" title="Choose a tenant.">
          Screens belong to one tenant, and {all.phrase} hold many. Pick the tenant in the switcher above to see its screens.
        </Alert>
      </>
    );
  }

  return <ScreenList />;
}

function ScreenList() {
  const me = useCurrentUser();
  const router = useRouter();
  const canManage = hasRole(me.role, 'TECHNICIAN');
  const [adding, setAdding] = useState(false);
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params } = list;
  const query = deviceResource.useList({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text, status: params.status });
  const [action, setAction] = useState<ScreenAction | null>(null);
  const columns = useMemo(() => buildColumns(canManage ? setAction : null), [canManage]);
  const command = useDeviceCommand();
  const remove = useDeleteDevice();
  const close = (open: boolean) => (open ? undefined : setAction(null));

  return (
    <>
      <PageHeader
        title="Screens"
        description="Every player of this tenant: whether it is online, what it shows, when it was last heard from."
        actions={
          canManage ? (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon className="size-4" />
              Add screen
            </Button>
          ) : null
        }
      />
      {canManage ? <AddScreenDialog open={adding} onOpenChange={setAdding} onAdded={(device) => router.push(`/screens/${device.id}`)} /> : null}
      <ResourceList
        identity={{ name: 'screens', noun: { one: 'screen', other: 'screens' } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(device) => device.id}
        sortable={SORTABLE}
        search={{ label: 'Search screens by name', placeholder: 'Search by name' }}
        filters={
          <div className="w-36 shrink-0">
            <Select aria-label="Status" value={params.status} onChange={(e) => list.update({ status: e.target.value as StatusFilter })}>
              {STATUS_FILTERS.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </Select>
          </div>
        }
        isFiltered={params.status !== 'all'}
        onClearFilters={() => list.update({ status: 'all' })}
        errorTitle="The screens could not be loaded."
        empty={{
          icon: <MonitorIcon className="size-5 text-zinc-500" />,
          title: 'No screens yet',
          body: 'A player shows a 4-digit code when it starts; a technician adds it with that code and it appears here.',
          action: canManage ? (
            <Button size="sm" onClick={() => setAdding(true)}>
              <PlusIcon className="size-4" />
              Add screen
            </Button>
          ) : null,
        }}
      />
      <ConfirmDialog
        open={action?.kind === 'restart'}
        onOpenChange={close}
        title={`Restart ${action?.device.name ?? ''}?`}
        description="The player restarts the next time it hears from the server; it shows nothing for a moment."
        confirmLabel="Restart"
        onConfirm={async () => {
          await command.mutateAsync({ name: 'restart', ids: [action!.device.id] });
        }}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        onOpenChange={close}
        title={`Delete ${action?.device.name ?? ''}?`}
        description="The player loses its access at once; to use it again, claim it anew with the code it then shows."
        confirmLabel="Delete"
        destructive
        onConfirm={async () => {
          await remove.mutateAsync(action!.device.id);
        }}
      />
    </>
  );
}

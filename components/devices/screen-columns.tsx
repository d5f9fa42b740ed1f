'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { deviceDrag } from '@/components/devices/device-drag';
import { DeviceStatus } from '@/components/devices/device-status';
import { NowPlayingSummary } from '@/components/devices/now-playing';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActions } from '@/components/ui/row-actions';
import { selectColumn, type RowSelection } from '@/components/ui/select-column';
import type { Device } from '@/lib/api/devices';
import { formatDateTime } from '@/lib/format';

export type ScreenAction = { kind: 'edit' | 'restart' | 'delete' | 'move'; device: Device };

/** The row (and card) menu of a screen for writers. */
export function ScreenMenu({ device, onAction }: { device: Device; onAction: (action: ScreenAction) => void }) {
  return (
    <RowActions label={`Actions for ${device.name}`}>
      <DropdownMenuItem asChild>
        <Link href={`/screens/${device.id}`}>Details and commands</Link>
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', device })}>Edit…</DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'move', device })}>Move to folder…</DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'restart', device })}>Restart</DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onAction({ kind: 'delete', device })}>
        Delete
      </DropdownMenuItem>
    </RowActions>
  );
}

/** The screens table: for writers (`selecting`), a checkbox column, draggable names and a row menu. */
export function screenColumns({
  selecting,
  onAction,
  rootId,
}: {
  selecting: RowSelection | null;
  onAction: ((action: ScreenAction) => void) | null;
  /** The root folder, named "All screens" as in the tree. */
  rootId: string | undefined;
}): ColumnDef<Device>[] {
  const columns: ColumnDef<Device>[] = [
    ...(selecting ? [selectColumn<Device>(selecting, 'screens')] : []),
    { id: 'deviceStatus', meta: { priority: 1, size: 110 }, accessorKey: 'deviceStatus', header: 'Status', cell: ({ row }) => <DeviceStatus device={row.original} /> },
    {
      id: 'name', meta: { size: 200 },
      accessorKey: 'name',
      header: 'Screen',
      cell: ({ row }) => {
        const device = row.original;
        const dragIds = selecting?.selected.has(device.id) ? [...selecting.selected] : [device.id];

        return (
          <div
            className="min-w-0"
            draggable={Boolean(selecting)}
            onDragStart={selecting ? (e) => deviceDrag.set(e, { deviceIds: dragIds, deviceGroupIds: [] }, dragIds.length > 1 ? `${dragIds.length} screens` : (device.name ?? 'screen')) : undefined}
          >
            <Link href={`/screens/${device.id}`} draggable={false} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
              {device.name || 'Unnamed screen'}
            </Link>
            {device.emergencyStatus ? <Badge tone="danger" className="ml-2">Emergency</Badge> : null}
            {device.tags?.length ? <p className="mt-0.5 truncate text-xs text-zinc-500">{device.tags.join(', ')}</p> : null}
          </div>
        );
      },
    },
    { id: 'folder', meta: { priority: 4, size: 140 }, header: 'Folder', enableSorting: false, cell: ({ row }) => <span className="text-zinc-600">{!row.original.deviceGroup || row.original.deviceGroup.id === rootId ? 'All screens' : (row.original.deviceGroup.name ?? '—')}</span> },
    { id: 'content', meta: { priority: 3, size: 170 }, header: 'Plays now', enableSorting: false, cell: ({ row }) => <NowPlayingSummary deviceId={row.original.id} className="max-w-64 min-w-0" /> },
    {
      id: 'lastActivity', meta: { priority: 2, size: 170 },
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
      cell: ({ row }) => <ScreenMenu device={row.original} onAction={onAction} />,
    });
  }

  return columns;
}

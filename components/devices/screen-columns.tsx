'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { deviceDrag } from '@/components/devices/device-drag';
import { DeviceStatus } from '@/components/devices/device-status';
import { ScreenAlertBadge } from '@/components/devices/screen-alert-badge';
import { NowPlayingSummary } from '@/components/devices/now-playing';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActions } from '@/components/ui/row-actions';
import { selectColumn, type RowSelection } from '@/components/ui/select-column';
import type { Device } from '@/lib/api/devices';
import type { Translate } from '@/lib/i18n/translate';
import type { useFormat } from '@/lib/i18n/use-format';

export type ScreenAction = { kind: 'edit' | 'restart' | 'delete' | 'move'; device: Device };

/** The row (and card) menu of a screen for writers. */
export function ScreenMenu({ device, onAction }: { device: Device; onAction: (action: ScreenAction) => void }) {
  const t = useTranslations('devices');

  return (
    <RowActions label={t('columns.actionsFor', { name: device.name ?? '' })}>
      <DropdownMenuItem asChild>
        <Link href={`/screens/${device.id}`}>{t('columns.details')}</Link>
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', device })}>{t('columns.edit')}</DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'move', device })}>{t('columns.moveTo')}</DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction({ kind: 'restart', device })}>{t('restart')}</DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem
        className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
        onSelect={() => onAction({ kind: 'delete', device })}
      >
        {t('delete')}
      </DropdownMenuItem>
    </RowActions>
  );
}

/** The screens table: for writers (`selecting`), a checkbox column, draggable names and a row menu. */
export function screenColumns({
  selecting,
  onAction,
  rootId,
  t,
  format,
  licenseLabel,
}: {
  selecting: RowSelection | null;
  onAction: ((action: ScreenAction) => void) | null;
  /** The root folder, named "All screens" as in the tree. */
  rootId: string | undefined;
  t: Translate<'devices'>;
  format: ReturnType<typeof useFormat>;
  /** A screen's licence in spec 3's names ("Licensed: Professional", "Free: Lite"): license-choices.ts. */
  licenseLabel: (device: Device) => string;
}): ColumnDef<Device>[] {
  const columns: ColumnDef<Device>[] = [
    ...(selecting ? [selectColumn<Device>(selecting, t('noun.other'))] : []),
    {
      id: 'deviceStatus',
      meta: { priority: 1, size: 110 },
      accessorKey: 'deviceStatus',
      header: t('status'),
      cell: ({ row }) => <DeviceStatus device={row.original} />,
    },
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.screen'),
      cell: ({ row }) => {
        const device = row.original;
        const dragIds = selecting?.selected.has(device.id) ? [...selecting.selected] : [device.id];

        return (
          <div
            className="min-w-0"
            draggable={Boolean(selecting)}
            onDragStart={
              selecting
                ? (e) =>
                    deviceDrag.set(
                      e,
                      { deviceIds: dragIds, deviceGroupIds: [] },
                      dragIds.length > 1 ? t('screens', { count: dragIds.length }) : (device.name ?? t('columns.screenWord')),
                    )
                : undefined
            }
          >
            <Link
              href={`/screens/${device.id}`}
              draggable={false}
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
      id: 'folder',
      meta: { priority: 4, size: 140 },
      header: t('folder'),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="text-zinc-600">
          {!row.original.deviceGroup || row.original.deviceGroup.id === rootId ? t('allScreens') : (row.original.deviceGroup.name ?? '—')}
        </span>
      ),
    },
    {
      id: 'content',
      meta: { priority: 3, size: 170 },
      header: t('columns.playsNow'),
      enableSorting: false,
      cell: ({ row }) => <NowPlayingSummary deviceId={row.original.id} className="max-w-64 min-w-0" />,
    },
    {
      id: 'licence',
      meta: { priority: 5, size: 160 },
      header: t('licence'),
      enableSorting: false,
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{licenseLabel(row.original)}</span>,
    },
    {
      id: 'lastActivity',
      meta: { priority: 2, size: 170 },
      accessorKey: 'lastActivity',
      header: t('lastActivity'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.dateTime(row.original.lastActivity, t('never'))}</span>,
    },
  ];
  if (onAction) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => <ScreenMenu device={row.original} onAction={onAction} />,
    });
  }

  return columns;
}

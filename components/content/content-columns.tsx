'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { contentDrag } from '@/components/content/content-drag';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { LockIcon, PlaylistIcon, SlideIcon } from '@/components/ui/icons';
import { RowActions } from '@/components/ui/row-actions';
import { selectColumn, type RowSelection } from '@/components/ui/select-column';
import { isWritable, kindLabel, type DeviceContent } from '@/lib/api/content';
import { formatDateTime } from '@/lib/format';

/** What the library's item menu asks the page to do. */
export type ItemAction = { kind: 'duplicate' | 'delete' | 'tags' | 'move'; item: DeviceContent };

export type ItemPermissions = { canEdit: boolean; canApprove: boolean };

/** The "…" menu of one item, in a table row and on a card: writes only for writers, and not on locked or read-only items. */
export function ItemMenu({ item, can, onAction, onLock }: { item: DeviceContent; can: ItemPermissions; onAction: (action: ItemAction) => void; onLock: (item: DeviceContent) => void }) {
  const writable = can.canEdit && isWritable(item);

  return (
    <RowActions label={`Actions for ${item.name}`}>
      <DropdownMenuItem asChild>
        <Link href={`/content/${item.id}`}>{writable ? 'Edit' : 'Open'}</Link>
      </DropdownMenuItem>
      <DropdownMenuItem asChild>
        <Link href={`/content/${item.id}/preview`}>Preview</Link>
      </DropdownMenuItem>
      {writable ? <DropdownMenuItem onSelect={() => onAction({ kind: 'tags', item })}>Tags…</DropdownMenuItem> : null}
      {writable ? <DropdownMenuItem onSelect={() => onAction({ kind: 'move', item })}>Move…</DropdownMenuItem> : null}
      {can.canEdit ? <DropdownMenuItem onSelect={() => onAction({ kind: 'duplicate', item })}>Make a copy</DropdownMenuItem> : null}
      {can.canApprove && !item.readOnly ? <DropdownMenuItem onSelect={() => onLock(item)}>{item.locked ? 'Unlock' : 'Lock'}</DropdownMenuItem> : null}
      {writable ? (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onAction({ kind: 'delete', item })}>
            Delete
          </DropdownMenuItem>
        </>
      ) : null}
    </RowActions>
  );
}

/** The library's table: a checkbox column and draggable names for writers (`selecting`). */
export function contentColumns({ selecting, menu }: { selecting: RowSelection | null; menu: (item: DeviceContent) => React.ReactNode }): ColumnDef<DeviceContent>[] {
  const select = selecting ? [selectColumn<DeviceContent>(selecting, 'items')] : [];

  return [
    ...select,
    {
      id: 'name', meta: { size: 220 },
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => {
        const item = row.original;
        const Glyph = item.deviceContentType === 'simpleLoop' ? PlaylistIcon : SlideIcon;
        const dragIds = selecting?.selected.has(item.id) ? [...selecting.selected] : [item.id];

        return (
          <div
            className="flex min-w-0 items-center gap-3"
            draggable={Boolean(selecting)}
            onDragStart={selecting ? (e) => contentDrag.set(e, { contentIds: dragIds, contentGroupIds: [] }, dragIds.length > 1 ? `${dragIds.length} items` : (item.name ?? 'item')) : undefined}
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-zinc-100 text-zinc-500">
              <Glyph className="size-4" />
            </span>
            <div className="min-w-0">
              <Link href={`/content/${item.id}`} draggable={false} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                {item.name}
              </Link>
              {item.comment ? <p className="max-w-md truncate text-xs text-zinc-500">{item.comment}</p> : null}
            </div>
          </div>
        );
      },
    },
    {
      id: 'type', meta: { priority: 2, size: 110 },
      header: 'Type',
      enableSorting: false,
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-zinc-600">
          {kindLabel(row.original)}
          {row.original.orientation ? <span className="text-zinc-400"> · {row.original.orientation}</span> : null}
        </span>
      ),
    },
    {
      id: 'tags', meta: { priority: 3, size: 150 },
      header: 'Tags',
      enableSorting: false,
      cell: ({ row }) => (
        <div className="flex max-w-56 flex-wrap gap-1">
          {(row.original.tags ?? []).slice(0, 4).map((tag) => (
            <Badge key={tag}>{tag}</Badge>
          ))}
          {(row.original.tags?.length ?? 0) > 4 ? <Badge>+{row.original.tags!.length - 4}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'lastSaved', meta: { priority: 1, size: 170 },
      accessorKey: 'lastSaved',
      header: 'Last saved',
      cell: ({ row }) => (
        <div className="whitespace-nowrap text-zinc-600">
          {row.original.locked ? (
            <Badge tone="brand" className="mr-2">
              <LockIcon className="mr-1 size-3" />
              Locked
            </Badge>
          ) : null}
          {formatDateTime(row.original.lastSaved)}
          {row.original.lastSavedBy?.name ? <span className="block text-xs text-zinc-400">{row.original.lastSavedBy.name}</span> : null}
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => menu(row.original),
    },
  ];
}

'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { contentDrag } from '@/components/content/content-drag';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { LockIcon, PlaylistIcon, SlideIcon } from '@/components/ui/icons';
import { RowActions } from '@/components/ui/row-actions';
import { selectColumn, type RowSelection } from '@/components/ui/select-column';
import { contentTypeOf, isWritable, type DeviceContent } from '@/lib/api/content';
import type { Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import type { useFormat } from '@/lib/i18n/use-format';

/** What the library's item menu asks the page to do. */
export type ItemAction = { kind: 'duplicate' | 'delete' | 'tags' | 'move'; item: DeviceContent };

export type ItemPermissions = { canEdit: boolean; canApprove: boolean };

/** The "…" menu of one item, in a table row and on a card: writes only for writers, and not on locked or read-only items. */
export function ItemMenu({
  item,
  can,
  onAction,
  onLock,
}: {
  item: DeviceContent;
  can: ItemPermissions;
  onAction: (action: ItemAction) => void;
  onLock: (item: DeviceContent) => void;
}) {
  const writable = can.canEdit && isWritable(item);
  const t = useTranslations('content.menu');

  return (
    <RowActions label={t('actions', { name: item.name ?? '' })}>
      <DropdownMenuItem asChild>
        <Link href={`/content/${item.id}`}>{writable ? t('edit') : t('open')}</Link>
      </DropdownMenuItem>
      <DropdownMenuItem asChild>
        <Link href={`/content/${item.id}/preview`}>{t('preview')}</Link>
      </DropdownMenuItem>
      {writable ? <DropdownMenuItem onSelect={() => onAction({ kind: 'tags', item })}>{t('tags')}</DropdownMenuItem> : null}
      {writable ? <DropdownMenuItem onSelect={() => onAction({ kind: 'move', item })}>{t('move')}</DropdownMenuItem> : null}
      {can.canEdit ? <DropdownMenuItem onSelect={() => onAction({ kind: 'duplicate', item })}>{t('copy')}</DropdownMenuItem> : null}
      {can.canApprove && !item.readOnly ? (
        <DropdownMenuItem onSelect={() => onLock(item)}>{item.locked ? t('unlock') : t('lock')}</DropdownMenuItem>
      ) : null}
      {writable ? (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
            onSelect={() => onAction({ kind: 'delete', item })}
          >
            {t('delete')}
          </DropdownMenuItem>
        </>
      ) : null}
    </RowActions>
  );
}

/** The library's table: a checkbox column and draggable names for writers (`selecting`), in the console's words. */
export function contentColumns({
  selecting,
  menu,
  t,
  label,
  format,
}: {
  selecting: RowSelection | null;
  menu: (item: DeviceContent) => React.ReactNode;
  t: Translate<'content'>;
  label: Label;
  format: ReturnType<typeof useFormat>;
}): ColumnDef<DeviceContent>[] {
  const select = selecting ? [selectColumn<DeviceContent>(selecting, t('noun.other'))] : [];

  return [
    ...select,
    {
      id: 'name',
      meta: { size: 220 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => {
        const item = row.original;
        const Glyph = item.deviceContentType === 'simpleLoop' ? PlaylistIcon : SlideIcon;
        const dragIds = selecting?.selected.has(item.id) ? [...selecting.selected] : [item.id];

        return (
          <div
            className="flex min-w-0 items-center gap-3"
            draggable={Boolean(selecting)}
            onDragStart={
              selecting
                ? (e) =>
                    contentDrag.set(
                      e,
                      { contentIds: dragIds, contentGroupIds: [] },
                      dragIds.length > 1 ? t('count', { count: dragIds.length }) : (item.name ?? t('noun.one')),
                    )
                : undefined
            }
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-zinc-100 text-zinc-500">
              <Glyph className="size-4" />
            </span>
            <div className="min-w-0">
              <Link
                href={`/content/${item.id}`}
                draggable={false}
                className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline"
              >
                {item.name}
              </Link>
              {item.comment ? <p className="max-w-md truncate text-xs text-zinc-500">{item.comment}</p> : null}
            </div>
          </div>
        );
      },
    },
    {
      id: 'type',
      meta: { priority: 2, size: 110 },
      header: t('columns.type'),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-zinc-600">
          {label('contentType', contentTypeOf(row.original))}
          {row.original.orientation ? <span className="text-zinc-400"> · {label('orientation', row.original.orientation)}</span> : null}
        </span>
      ),
    },
    {
      id: 'tags',
      meta: { priority: 3, size: 150 },
      header: t('columns.tags'),
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
      id: 'lastSaved',
      meta: { priority: 1, size: 170 },
      accessorKey: 'lastSaved',
      header: t('columns.lastSaved'),
      cell: ({ row }) => (
        <div className="whitespace-nowrap text-zinc-600">
          {row.original.locked ? (
            <Badge tone="brand" className="mr-2">
              <LockIcon className="mr-1 size-3" />
              {t('locked')}
            </Badge>
          ) : null}
          {format.dateTime(row.original.lastSaved)}
          {row.original.lastSavedBy?.name ? <span className="block text-xs text-zinc-400">{row.original.lastSavedBy.name}</span> : null}
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => menu(row.original),
    },
  ];
}

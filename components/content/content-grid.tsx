'use client';

import { useTranslations } from 'next-intl';
import { useMemo, type ReactNode } from 'react';
import { SlidePreview } from '@/components/content/content-preview';
import { contentDrag } from '@/components/content/content-drag';
import { Badge } from '@/components/ui/badge';
import { CardGrid, SelectableCard } from '@/components/ui/card-grid';
import { FolderIcon, LockIcon, PlaylistIcon, SlideIcon } from '@/components/ui/icons';
import { contentTypeOf, type DeviceContent, type PlaylistItem, type SlideData } from '@/lib/api/content';
import { referenceIdsOf, useReferences, type References } from '@/lib/api/content-references';
import { useDatasourceFeed } from '@/lib/api/datasource-data';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

type Props = {
  items: DeviceContent[];
  selected: ReadonlySet<string>;
  dimmed: boolean;
  /** Selection and dragging feed the bulk actions and moves, which need EDITOR. */
  selectable: boolean;
  onOpen: (item: DeviceContent) => void;
  onToggle: (id: string, options: { range: boolean }) => void;
  menuOf: (item: DeviceContent) => ReactNode;
};

/** A page of the content library as cards: slides drawn by the renderer, playlists by their first item. */
export function ContentGrid({ items, selected, dimmed, selectable, onOpen, onToggle, menuOf }: Props) {
  const t = useTranslations('content');
  const label = useLabel();
  const format = useFormat();
  // What the cards show: each slide's document, and what each playlist's first item points at (a nested
  // playlist stays an icon: drawing it would load its whole document).
  const previewItems = useMemo(
    () =>
      items.flatMap((item): Array<Pick<PlaylistItem, 'type' | 'id'>> =>
        item.deviceContentType === 'content'
          ? [{ type: 'CONTENT', id: item.id }]
          : item.firstItem && item.firstItem.type !== 'SIMPLE_LOOP'
            ? [item.firstItem]
            : [],
      ),
    [items],
  );
  const refs = useReferences(referenceIdsOf(previewItems), { folderFiles: false });

  return (
    <CardGrid label={t('grid.label')} dimmed={dimmed}>
      {items.map((item) => {
        const name = item.name ?? t('untitled');
        const isSelected = selected.has(item.id);
        const dragIds = isSelected ? [...selected] : [item.id];

        return (
          <SelectableCard
            key={item.id}
            testId="content-card"
            name={name}
            selected={isSelected}
            selecting={selected.size > 0}
            selectable={selectable}
            onOpen={() => onOpen(item)}
            onToggle={(options) => onToggle(item.id, options)}
            onDragStart={
              selectable
                ? (e) =>
                    contentDrag.set(
                      e,
                      { contentIds: dragIds, contentGroupIds: [] },
                      dragIds.length > 1 ? t('count', { count: dragIds.length }) : name,
                    )
                : undefined
            }
            menu={menuOf(item)}
            preview={
              <>
                <CardPreview item={item} refs={refs} />
                {item.locked ? (
                  <span
                    className="absolute bottom-2 left-2 inline-flex items-center gap-1 rounded bg-zinc-900/75 px-1.5 py-0.5 text-[10px] font-medium tracking-wide text-white uppercase"
                    title={t('lockedBy')}
                  >
                    <LockIcon className="size-3" /> {t('locked')}
                  </span>
                ) : null}
              </>
            }
          >
            <p className="truncate text-xs text-zinc-500">
              {label('contentType', contentTypeOf(item))}
              {item.lastSaved ? ` · ${format.date(item.lastSaved)}` : ''}
            </p>
            {item.tags?.length ? (
              <div className="flex gap-1 overflow-hidden" title={item.tags.join(', ')}>
                {item.tags.slice(0, 2).map((tag) => (
                  <Badge key={tag} className="min-w-0 truncate">
                    {tag}
                  </Badge>
                ))}
                {item.tags.length > 2 ? <Badge className="shrink-0">+{item.tags.length - 2}</Badge> : null}
              </div>
            ) : null}
          </SelectableCard>
        );
      })}
    </CardGrid>
  );
}

function Placeholder({ icon, label }: { icon: ReactNode; label?: string }) {
  return (
    <div className="flex size-full flex-col items-center justify-center gap-1 bg-zinc-100 text-zinc-400">
      {icon}
      {label ? <span className="text-xs">{label}</span> : null}
    </div>
  );
}

/** A slide drawn by the renderer; a playlist's first item (a file's or folder's thumbnail, a slide drawn); else an icon. */
function CardPreview({ item, refs }: { item: DeviceContent; refs: References }) {
  const t = useTranslations('content.grid');
  const label = useLabel();
  // A card's slide shows its datasource widgets' data as it was when read (not kept live: a grid holds many cards).
  const datasourceFeed = useDatasourceFeed(item.customerId);
  const slideOf = (id: string) => refs.contents.get(id)?.data as SlideData | undefined;
  const slide = (data: SlideData | undefined) =>
    data ? <SlidePreview data={data} customerId={item.customerId} className="h-full rounded-none" datasourceFeed={datasourceFeed} /> : null;
  const image = (url: string | undefined) =>
    // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
    url ? <img src={url} alt="" loading="lazy" draggable={false} className="size-full bg-zinc-100 object-cover" /> : null;

  if (item.deviceContentType === 'content') return slide(slideOf(item.id)) ?? <Placeholder icon={<SlideIcon className="size-10" />} />;
  const first = item.firstItem;
  const drawn =
    first?.type === 'FILE'
      ? image(refs.files.get(first.id)?.thumbnail ?? undefined)
      : first?.type === 'FILE_FOLDER'
        ? image(refs.folderThumbnails.get(first.id))
        : first?.type === 'CONTENT'
          ? slide(slideOf(first.id))
          : null;

  return (
    <>
      {drawn ?? (
        <Placeholder
          icon={first?.type === 'FILE_FOLDER' ? <FolderIcon className="size-10" /> : <PlaylistIcon className="size-10" />}
          label={first ? undefined : t('emptyPlaylist')}
        />
      )}
      <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded bg-zinc-900/75 px-1.5 py-0.5 text-[10px] font-medium tracking-wide text-white uppercase">
        <PlaylistIcon className="size-3" /> {label('contentType', 'simpleLoop')}
      </span>
    </>
  );
}

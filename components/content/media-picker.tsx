'use client';

import { useTranslations } from 'next-intl';
import { useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/field';
import { FilmIcon, FolderIcon, PhotoIcon, PlaylistIcon, PlusIcon, SlideIcon } from '@/components/ui/icons';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { contentResource, contentTypeOf, type DeviceContent } from '@/lib/api/content';
import { useFolderChildren, useRootFolder } from '@/lib/api/file-folders';
import { useFiles, type MediaFile } from '@/lib/api/files';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';

/** What the picker hands to the playlist: a file, a folder of files, or a slide or playlist. */
export type PickedItem =
  | { type: 'FILE'; id: string; name: string; contentType: string; location?: string; thumbnail?: string }
  | { type: 'FILE_FOLDER'; id: string; name: string }
  | { type: 'CONTENT' | 'SIMPLE_LOOP'; id: string; name: string };

export const PICKED_MIME = 'application/x-signage-picked';

function dragProps(item: PickedItem) {
  return {
    draggable: true,
    onDragStart: (e: DragEvent) => {
      e.dataTransfer.setData(PICKED_MIME, JSON.stringify(item));
      e.dataTransfer.effectAllowed = 'copy';
    },
  };
}

/** Media, folders and content to drag into a playlist (or add with the button). */
export function MediaPicker({ onAdd, excludeId }: { onAdd: (item: PickedItem) => void; excludeId: string }) {
  const [tab, setTab] = useState<'media' | 'content'>('media');
  const t = useTranslations('content.picker');

  return (
    <div className="flex h-full flex-col">
      <div role="tablist" aria-label={t('addFrom')} className="mb-3 flex gap-1 rounded-lg bg-zinc-100 p-1 text-sm">
        {(['media', 'content'] as const).map((name) => (
          <button
            key={name}
            role="tab"
            type="button"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={cn(
              'flex-1 cursor-pointer rounded-md px-2 py-1.5 font-medium',
              tab === name ? 'bg-white text-zinc-900 shadow-sm' : 'text-zinc-600 hover:text-zinc-900',
            )}
          >
            {t(name)}
          </button>
        ))}
      </div>
      {tab === 'media' ? <MediaTab onAdd={onAdd} /> : <ContentTab onAdd={onAdd} excludeId={excludeId} />}
    </div>
  );
}

function PickCard({
  item,
  thumbnail,
  icon,
  detail,
  onAdd,
}: {
  item: PickedItem;
  thumbnail?: string;
  icon: React.ReactNode;
  detail: string;
  onAdd: (item: PickedItem) => void;
}) {
  const t = useTranslations('content.picker');

  return (
    <li
      {...dragProps(item)}
      data-testid={`pick-${item.name}`}
      className="group flex cursor-grab items-center gap-2 rounded-md border border-zinc-200 bg-white p-1.5 hover:border-brand-300 active:cursor-grabbing"
    >
      <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded bg-zinc-100 text-zinc-400">
        {/* eslint-disable-next-line @next/next/no-img-element -- a tenant's own thumbnail, served by the API */}
        {thumbnail ? <img src={thumbnail} alt="" className="size-full object-cover" /> : icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm text-zinc-800">{item.name}</span>
        <span className="block text-xs text-zinc-400">{detail}</span>
      </span>
      <Button variant="ghost" size="sm" aria-label={t('add', { name: item.name })} onClick={() => onAdd(item)}>
        <PlusIcon className="size-4" />
      </Button>
    </li>
  );
}

function MediaTab({ onAdd }: { onAdd: (item: PickedItem) => void }) {
  const [text, setText] = useState('');
  const [type, setType] = useState<'image' | 'video' | ''>('');
  const t = useTranslations('content.picker');
  const label = useLabel();
  const files = useFiles({ page: 0, size: 50, sort: 'name,asc', filters: { text, type: type || undefined } });
  const root = useRootFolder();
  const folders = useFolderChildren(root.data?.id, { enabled: Boolean(root.data?.id) });
  const playable = (files.data?.content ?? []).filter(
    (f: MediaFile) => f.contentType?.startsWith('image/') || f.contentType?.startsWith('video/'),
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <SearchInput label={t('searchMedia')} placeholder={t('searchMedia')} value={text} onChange={setText} className="w-full" />
      <div className="flex items-center gap-2 text-xs text-zinc-500">
        {t('show')}
        <Select
          aria-label={t('mediaType')}
          value={type}
          onChange={(e) => setType(e.target.value as 'image' | 'video' | '')}
          className="h-8 w-auto text-xs"
        >
          <option value="">{t('all')}</option>
          <option value="image">{t('images')}</option>
          <option value="video">{t('videos')}</option>
        </Select>
      </div>
      <ul className="flex min-h-0 flex-1 flex-col gap-1.5 overflow-y-auto pr-1" aria-label={t('media')}>
        {!text && (folders.data?.content ?? []).length > 0
          ? folders.data!.content.map((folder) => (
              <PickCard
                key={folder.id}
                item={{ type: 'FILE_FOLDER', id: folder.id, name: folder.name ?? t('folder') }}
                icon={<FolderIcon className="size-5" />}
                detail={t('folderDetail')}
                onAdd={onAdd}
              />
            ))
          : null}
        {files.isPending ? <Spinner className="m-4 size-5" /> : null}
        {playable.map((file) => (
          <PickCard
            key={file.id}
            item={{
              type: 'FILE',
              id: file.id,
              name: file.name ?? t('file'),
              contentType: file.contentType ?? '',
              location: file.location,
              thumbnail: file.thumbnail,
            }}
            thumbnail={file.thumbnail ?? (file.contentType?.startsWith('image/') ? file.location : undefined)}
            icon={file.contentType?.startsWith('video/') ? <FilmIcon className="size-5" /> : <PhotoIcon className="size-5" />}
            detail={label('fileKind', file.contentType?.startsWith('video/') ? 'video' : 'image')}
            onAdd={onAdd}
          />
        ))}
        {files.isSuccess && playable.length === 0 ? <li className="p-3 text-sm text-zinc-500">{t('noMedia')}</li> : null}
      </ul>
    </div>
  );
}

function ContentTab({ onAdd, excludeId }: { onAdd: (item: PickedItem) => void; excludeId: string }) {
  const [text, setText] = useState('');
  const t = useTranslations('content.picker');
  const label = useLabel();
  const list = contentResource.useList({ page: 0, size: 50, sort: 'name,asc', text, kind: 'all', folderId: '' });
  // A playlist embeds slides (one page) and playlists, never itself (spec 2).
  const items = (list.data?.content ?? []).filter(
    (c: DeviceContent) => c.id !== excludeId && (c.deviceContentType === 'simpleLoop' || c.structureType === 'SLIDE'),
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <SearchInput label={t('searchContent')} placeholder={t('searchByName')} value={text} onChange={setText} className="w-full" />
      <ul className="flex min-h-0 flex-1 flex-col gap-1.5 overflow-y-auto pr-1" aria-label={t('content')}>
        {items.map((c) => (
          <PickCard
            key={c.id}
            item={{ type: c.deviceContentType === 'simpleLoop' ? 'SIMPLE_LOOP' : 'CONTENT', id: c.id, name: c.name ?? '' }}
            icon={c.deviceContentType === 'simpleLoop' ? <PlaylistIcon className="size-5" /> : <SlideIcon className="size-5" />}
            detail={label('contentType', contentTypeOf(c))}
            onAdd={onAdd}
          />
        ))}
        {list.isSuccess && items.length === 0 ? <li className="p-3 text-sm text-zinc-500">{t('noContent')}</li> : null}
      </ul>
    </div>
  );
}

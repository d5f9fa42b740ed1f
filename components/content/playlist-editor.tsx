'use client';

import { useTranslations } from 'next-intl';
import { useRef, useState, type DragEvent } from 'react';
import { PlaylistPreview } from '@/components/content/content-preview';
import { isOutOfValidity, ItemValidityBadges, ItemValidityButton } from '@/components/content/item-validity';
import { MediaPicker, PICKED_MIME, type PickedItem } from '@/components/content/media-picker';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  FilmIcon,
  FolderIcon,
  PhotoIcon,
  PlayIcon,
  PlaylistIcon,
  SlideIcon,
  XIcon,
} from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { FIT_MODES, type DeviceContent, type PlaylistData, type PlaylistItem } from '@/lib/api/content';
import { resolverOf, usePlaylistReferences, type References } from '@/lib/api/content-references';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import type { DatasourceFeed } from '@/lib/player/render';
import { formatDuration, isVideo, playlistTimeline } from '@/lib/player/timeline';

const ITEM_MIME = 'application/x-signage-playlist-index';

function newKey(): string {
  return crypto.randomUUID();
}

/** A picked thing as a playlist item. */
function itemOf(picked: PickedItem): PlaylistItem {
  return { key: newKey(), type: picked.type, id: picked.id } as PlaylistItem;
}

/** Reads a video's length from its metadata (the file's own length is its default duration). */
function videoLength(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () =>
      resolve(Number.isFinite(video.duration) && video.duration > 0 ? Math.round(video.duration * 1000) : undefined);
    video.onerror = () => resolve(undefined);
    video.src = url;
  });
}

/**
 * The playlist editor: media dragged in from the picker (or added with its button), items reordered by drag
 * or with the arrows, per-item duration, fit and validity, undo and redo, and a live preview that plays the list with
 * its real timing. Changes are saved automatically (`onChange` is called with every new version).
 */
export function PlaylistEditor({
  item,
  data,
  onChange,
  readOnly,
  datasourceFeed,
}: {
  item: DeviceContent;
  data: PlaylistData;
  onChange: (data: PlaylistData) => void;
  readOnly: boolean;
  /** The data of the datasource widgets of its slides, for the preview. */
  datasourceFeed?: DatasourceFeed;
}) {
  const t = useTranslations('content.playlist');
  const refs = usePlaylistReferences(data);
  const resolver = resolverOf(refs);
  const [playing, setPlaying] = useState(true);
  const [playingKey, setPlayingKey] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;
  const total = playlistTimeline(data, resolver).reduce((sum, e) => sum + e.durationMs, 0);
  const slides = data.slides;

  const replace = (next: PlaylistItem[]) => onChange({ ...dataRef.current, slides: next });
  const patch = (key: string, change: Partial<PlaylistItem>) =>
    onChange({
      ...dataRef.current,
      slides: dataRef.current.slides.map((s) => (s.key === key ? ({ ...s, ...change } as PlaylistItem) : s)),
    });

  /** Adds a picked thing at `at`; a video first gets its own length, so the addition is one undo step. */
  const add = async (picked: PickedItem, at?: number) => {
    const next = itemOf(picked);
    if (picked.type === 'FILE' && picked.contentType.startsWith('video/') && picked.location) {
      const ms = await Promise.race([videoLength(picked.location), new Promise<undefined>((r) => setTimeout(r, 3000))]);
      if (ms) Object.assign(next, { durationMs: Math.max(100, ms) });
    }
    const list = [...dataRef.current.slides];
    list.splice(Math.min(at ?? list.length, list.length), 0, next);
    replace(list);
  };

  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to > dataRef.current.slides.length) return;
    const list = [...dataRef.current.slides];
    const [moved] = list.splice(from, 1);
    list.splice(from < to ? to - 1 : to, 0, moved!);
    replace(list);
  };

  const onDrop = (e: DragEvent, at: number) => {
    e.preventDefault();
    setDropAt(null);
    if (readOnly) return;
    const picked = e.dataTransfer.getData(PICKED_MIME);
    if (picked) return void add(JSON.parse(picked) as PickedItem, at);
    const from = e.dataTransfer.getData(ITEM_MIME);
    if (from !== '') move(Number(from), at);
  };
  const dragOver = (e: DragEvent, at: number) => {
    if (readOnly) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = e.dataTransfer.types.includes(PICKED_MIME) ? 'copy' : 'move';
    setDropAt(at);
  };

  return (
    <div className="grid gap-4 xl:grid-cols-[17rem_minmax(0,1fr)_22rem]">
      {readOnly ? null : (
        <Card className="flex h-[36rem] flex-col p-3">
          <MediaPicker onAdd={(picked) => void add(picked)} excludeId={item.id} />
        </Card>
      )}
      <Card className={cn('flex min-h-[36rem] flex-col p-3', readOnly && 'xl:col-span-2')}>
        <div className="mb-2 flex items-center justify-between text-sm">
          <h2 className="font-medium text-zinc-900">{t('items', { count: slides.length })}</h2>
          <span className="text-zinc-500" data-testid="playlist-total">
            {t('plays', { duration: formatDuration(total) })}
          </span>
        </div>
        <ol
          aria-label={t('itemsLabel')}
          data-testid="playlist-items"
          className={cn(
            'flex flex-1 flex-col gap-1.5 rounded-md',
            slides.length === 0 && 'items-center justify-center border-2 border-dashed border-zinc-200',
            dropAt === slides.length && 'bg-brand-50/50',
          )}
          onDragOver={(e) => dragOver(e, slides.length)}
          onDragLeave={() => setDropAt(null)}
          onDrop={(e) => onDrop(e, slides.length)}
        >
          {slides.length === 0 ? <li className="p-6 text-center text-sm text-zinc-500">{t('dropHere')}</li> : null}
          {slides.map((entry, index) => (
            <ItemRow
              key={entry.key}
              entry={entry}
              index={index}
              count={slides.length}
              refs={refs}
              defaults={data.loopData}
              readOnly={readOnly}
              playing={playingKey === entry.key || (playingKey?.startsWith(`${entry.key}/`) ?? false)}
              dropBefore={dropAt === index}
              onDragOver={(e) => {
                e.stopPropagation();
                dragOver(e, index);
              }}
              onDrop={(e) => {
                e.stopPropagation();
                onDrop(e, index);
              }}
              onMove={(to) => move(index, to)}
              onPatch={(change) => patch(entry.key, change)}
              onRemove={() => replace(slides.filter((s) => s.key !== entry.key))}
            />
          ))}
        </ol>
      </Card>
      <div className="flex flex-col gap-3">
        <PlaylistPreview
          data={data}
          customerId={item.customerId}
          resolver={resolver}
          playing={playing}
          onEntry={(_, entry) => setPlayingKey(entry.key)}
          datasourceFeed={datasourceFeed}
        />
        <div className="flex items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => setPlaying(!playing)}>
            <PlayIcon className="size-4" />
            {playing ? t('stop') : t('play')}
          </Button>
          <span className="text-xs text-zinc-500">
            {data.loopData.resolution.width} × {data.loopData.resolution.height}
          </span>
        </div>
        <Alert tone="info">{t('previewNote')}</Alert>
      </div>
    </div>
  );
}

function ItemRow({
  entry,
  index,
  count,
  refs,
  defaults,
  readOnly,
  playing,
  dropBefore,
  onDragOver,
  onDrop,
  onMove,
  onPatch,
  onRemove,
}: {
  entry: PlaylistItem;
  index: number;
  count: number;
  refs: References;
  defaults: PlaylistData['loopData'];
  readOnly: boolean;
  playing: boolean;
  dropBefore: boolean;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
  onMove: (to: number) => void;
  onPatch: (change: Partial<PlaylistItem>) => void;
  onRemove: () => void;
}) {
  const t = useTranslations('content.playlist');
  const label = useLabel();
  const file = entry.type === 'FILE' ? refs.files.get(entry.id) : undefined;
  const content = entry.type === 'CONTENT' || entry.type === 'SIMPLE_LOOP' ? refs.contents.get(entry.id) : undefined;
  const video = file ? isVideo({ contentType: file.contentType ?? '' }) : false;
  const name = file?.name ?? content?.name ?? (entry.type === 'FILE_FOLDER' ? refs.folderNames.get(entry.id) : undefined) ?? '…';
  const Glyph =
    entry.type === 'FILE_FOLDER'
      ? FolderIcon
      : entry.type === 'SIMPLE_LOOP'
        ? PlaylistIcon
        : entry.type === 'CONTENT'
          ? SlideIcon
          : video
            ? FilmIcon
            : PhotoIcon;
  const kind =
    entry.type === 'FILE_FOLDER'
      ? t('kinds.folder')
      : entry.type === 'SIMPLE_LOOP'
        ? label('contentType', 'simpleLoop')
        : entry.type === 'CONTENT'
          ? label('contentType', 'SLIDE')
          : label('fileKind', video ? 'video' : 'image');
  const hasDuration = entry.type !== 'SIMPLE_LOOP';
  const hasFit = entry.type === 'FILE' || entry.type === 'FILE_FOLDER';
  const defaultFit = video ? defaults.defaultVideoFit : defaults.defaultImageFit;
  const durationMs = 'durationMs' in entry ? entry.durationMs : undefined;
  const seconds = durationMs === undefined ? '' : String(Math.round(durationMs / 100) / 10);
  // Screens skip an item outside its own validity, and a file outside the file's.
  const skipped = isOutOfValidity(entry, file);

  return (
    <li
      draggable={!readOnly}
      onDragStart={(e) => {
        e.dataTransfer.setData(ITEM_MIME, String(index));
        e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={onDragOver}
      onDrop={onDrop}
      data-testid={`playlist-item-${index}`}
      data-name={name}
      data-skipped={skipped || undefined}
      className={cn(
        'flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border bg-white p-1.5 text-sm',
        skipped && 'bg-zinc-50 [&>.item-body]:opacity-60',
        playing ? 'border-brand-400 ring-2 ring-brand-100' : 'border-zinc-200',
        dropBefore && 'border-t-4 border-t-brand-500',
        !readOnly && 'cursor-grab active:cursor-grabbing',
      )}
    >
      <span className="flex w-9 items-center gap-0.5 text-xs text-zinc-400 tabular-nums" title={readOnly ? undefined : t('dragToReorder')}>
        {readOnly ? null : (
          <svg viewBox="0 0 8 14" aria-hidden="true" className="h-3.5 w-2 shrink-0 fill-current text-zinc-300">
            {[2, 7, 12].flatMap((y) => [<circle key={`a${y}`} cx="2" cy={y} r="1.2" />, <circle key={`b${y}`} cx="6" cy={y} r="1.2" />])}
          </svg>
        )}
        <span className="flex-1 text-right">{index + 1}</span>
      </span>
      <span className="item-body flex size-10 shrink-0 items-center justify-center overflow-hidden rounded bg-zinc-100 text-zinc-400">
        {file?.thumbnail || (file && !video) ? (
          // eslint-disable-next-line @next/next/no-img-element -- a tenant's own thumbnail, served by the API
          <img src={file.thumbnail ?? file.location} alt="" className="size-full object-cover" />
        ) : (
          <Glyph className="size-5" />
        )}
      </span>
      <span className="item-body min-w-[9rem] flex-1">
        <span className="block truncate font-medium text-zinc-800" title={name}>
          {name}
        </span>
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-400">
          {kind}
          <ItemValidityBadges item={entry} file={file} />
        </span>
      </span>
      <span className="ml-auto flex shrink-0 items-center gap-1">
        {hasDuration ? (
          <label className="flex items-center gap-1 text-xs text-zinc-500">
            <span className="w-20">
              <Input
                aria-label={t('seconds', { name })}
                type="number"
                min={0.1}
                step={0.5}
                disabled={readOnly}
                placeholder={video && !durationMs ? t('videoPlaceholder') : String(defaults.defaultDurationMs / 1000)}
                value={seconds}
                onChange={(e) => {
                  const value = Number(e.target.value);
                  onPatch({
                    durationMs:
                      e.target.value === '' || !Number.isFinite(value) || value <= 0 ? undefined : Math.max(100, Math.round(value * 1000)),
                  } as Partial<PlaylistItem>);
                }}
                className="h-8"
              />
            </span>
            {t('secondsUnit')}
          </label>
        ) : null}
        {hasFit ? (
          <span className="w-36">
            <Select
              aria-label={t('fit', { name })}
              disabled={readOnly}
              value={'fit' in entry ? (entry.fit ?? '') : ''}
              onChange={(e) => onPatch({ fit: e.target.value || undefined } as Partial<PlaylistItem>)}
              className="h-8 text-xs"
            >
              <option value="">{t('defaultFit', { fit: label('fit', defaultFit) })}</option>
              {FIT_MODES.map((fit) => (
                <option key={fit} value={fit}>
                  {label('fit', fit)}
                </option>
              ))}
            </Select>
          </span>
        ) : null}
        {readOnly ? null : (
          <span className="flex items-center">
            <ItemValidityButton
              item={entry}
              name={name}
              onChange={(window) => onPatch({ validFrom: window.validFrom, validTo: window.validTo } as Partial<PlaylistItem>)}
            />
            <Button variant="ghost" size="sm" aria-label={t('moveUp', { name })} disabled={index === 0} onClick={() => onMove(index - 1)}>
              <ArrowUpIcon className="size-4" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('moveDown', { name })}
              disabled={index === count - 1}
              onClick={() => onMove(index + 2)}
            >
              <ArrowDownIcon className="size-4" />
            </Button>
            <Button variant="ghost" size="sm" aria-label={t('remove', { name })} onClick={onRemove}>
              <XIcon className="size-4" />
            </Button>
          </span>
        )}
      </span>
    </li>
  );
}

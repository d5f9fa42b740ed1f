'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import type { PlaylistData, SlideData } from '@/lib/api/content';
import { PlaylistPlayer, showSlide, type DatasourceFeed } from '@/lib/player/render';
import { playlistTimeline, type PlayEntry, type Resolver } from '@/lib/player/timeline';
import { cn } from '@/lib/cn';

/** The console's download path of a tenant's file (spec 2 URL patterns; the session cookie authenticates it). */
export function fileUrlOf(customerId: number | undefined): (fileId: string) => string {
  return (fileId) => `/api/storage/customer/${customerId ?? 0}/files/${fileId}`;
}

/**
 * A playlist playing exactly as a screen plays it (lib/player): the preview of the editor and of the
 * preview page. `playing` starts and stops it; it restarts when the playlist changes.
 */
export function PlaylistPreview({
  data,
  customerId,
  resolver,
  playing,
  onEntry,
  className,
  datasourceFeed,
}: {
  data: PlaylistData;
  customerId: number | undefined;
  resolver: Resolver;
  playing: boolean;
  onEntry?: (index: number, entry: PlayEntry) => void;
  className?: string;
  /** The data of its slides' datasource widgets (absent: their placeholders). */
  datasourceFeed?: DatasourceFeed;
}) {
  const t = useTranslations('content.preview');
  const ref = useRef<HTMLDivElement>(null);
  const onEntryRef = useRef(onEntry);
  onEntryRef.current = onEntry;
  const entries = playlistTimeline(data, resolver);
  const signature = JSON.stringify(
    entries.map((e) => [e.key, e.kind, e.durationMs, 'file' in e ? e.file.url : e.contentId, 'fit' in e ? e.fit : '']),
  );
  const { width, height } = data.loopData.resolution;

  useEffect(() => {
    const container = ref.current;
    if (!container || !playing || entries.length === 0) return;
    const player = new PlaylistPlayer(
      container,
      entries,
      { width, height },
      {
        fileUrl: fileUrlOf(customerId),
        muted: true,
        background: data.loopData.backgroundColor,
        onEntry: (index, entry) => onEntryRef.current?.(index, entry),
        datasources: datasourceFeed,
      },
    );
    player.start();

    return () => {
      player.stop();
      container.replaceChildren();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the player restarts when what plays changes, not on every render
  }, [signature, playing, width, height, customerId, datasourceFeed]);

  return (
    <div
      ref={ref}
      data-testid="playlist-preview"
      className={cn('relative w-full overflow-hidden rounded-lg bg-zinc-900', className)}
      style={{ aspectRatio: `${width} / ${height}` }}
    >
      {!playing || entries.length === 0 ? (
        <div className="absolute inset-0 flex items-center justify-center text-sm text-zinc-400">
          {entries.length === 0 ? t('nothing') : t('stopped')}
        </div>
      ) : null}
    </div>
  );
}

/** A slide drawn by the renderer screens use; `datasourceFeed` gives its datasource widgets their data (absent: placeholders). */
export function SlidePreview({
  data,
  customerId,
  className,
  datasourceFeed,
}: {
  data: SlideData;
  customerId: number | undefined;
  className?: string;
  datasourceFeed?: DatasourceFeed;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const signature = JSON.stringify(data);
  const size = data.pages[0]?.pageData.screenSize ?? { width: 1920, height: 1080 };

  useEffect(() => {
    const container = ref.current;
    if (!container) return;

    return showSlide(container, JSON.parse(signature) as SlideData, {
      fileUrl: fileUrlOf(customerId),
      muted: true,
      datasources: datasourceFeed,
    });
  }, [signature, customerId, datasourceFeed]);

  return (
    <div
      ref={ref}
      data-testid="slide-preview"
      className={cn('relative w-full overflow-hidden rounded-lg bg-zinc-900', className)}
      style={{ aspectRatio: `${size.width} / ${size.height}` }}
    />
  );
}

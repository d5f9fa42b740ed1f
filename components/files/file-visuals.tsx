'use client';

import { useState } from 'react';
import { DocumentIcon, FilmIcon, MusicIcon, PhotoIcon } from '@/components/ui/icons';
import { kindOf, thumbnailUrl, type MediaFile } from '@/lib/api/files';
import { cn } from '@/lib/cn';
import type { Noun } from '@/lib/format';
import type { Translate } from '@/lib/i18n/translate';

function KindIcon({ file, className }: { file: Pick<MediaFile, 'contentType' | 'name'>; className?: string }) {
  const kind = kindOf(file.contentType, file.name);
  const Icon = kind === 'image' ? PhotoIcon : kind === 'video' ? FilmIcon : kind === 'audio' ? MusicIcon : DocumentIcon;

  return <Icon className={className} />;
}

/** What the media library counts, in the console's language: `format.count(3, mediaNoun(t, 'file'))` → "3 files". */
export function mediaNoun(t: Translate<'media'>, noun: 'file' | 'folder' | 'item'): Noun {
  return { one: t(`nouns.${noun}.one`), other: t(`nouns.${noun}.other`) };
}

/** The thumbnail, or the kind's icon while there is none (or it fails to load). */
export function Thumbnail({ file, className, iconClassName }: { file: MediaFile; className?: string; iconClassName?: string }) {
  const url = thumbnailUrl(file);
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) {
    return (
      <div className={cn('flex items-center justify-center bg-zinc-100 text-zinc-400', className)}>
        <KindIcon file={file} className={iconClassName ?? 'size-8'} />
      </div>
    );
  }

  return (
    // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path, not a static asset
    <img
      src={url}
      alt=""
      loading="lazy"
      draggable={false}
      onError={() => setFailed(url)}
      className={cn('bg-zinc-100 object-cover', className)}
    />
  );
}

export function dimensions(file: Pick<MediaFile, 'width' | 'height'>): string | null {
  return file.width && file.height ? `${file.width}×${file.height}` : null;
}

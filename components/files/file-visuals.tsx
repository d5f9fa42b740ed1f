'use client';

import { useState } from 'react';
import { DocumentIcon, FilmIcon, MusicIcon, PhotoIcon } from '@/components/ui/icons';
import { Badge } from '@/components/ui/badge';
import { kindOf, thumbnailUrl, type MediaFile } from '@/lib/api/files';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';

export function KindIcon({ file, className }: { file: Pick<MediaFile, 'contentType' | 'name'>; className?: string }) {
  const kind = kindOf(file.contentType, file.name);
  const Icon = kind === 'image' ? PhotoIcon : kind === 'video' ? FilmIcon : kind === 'audio' ? MusicIcon : DocumentIcon;

  return <Icon className={className} />;
}

export function kindLabel(file: Pick<MediaFile, 'contentType' | 'name'>): string {
  const kind = kindOf(file.contentType, file.name);

  return { image: 'Image', video: 'Video', audio: 'Audio', pdf: 'PDF', font: 'Font', json: 'JSON', other: 'File' }[kind];
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
    <img src={url} alt="" loading="lazy" draggable={false} onError={() => setFailed(url)} className={cn('bg-zinc-100 object-cover', className)} />
  );
}

export type ValidityState = 'expired' | 'upcoming' | 'valid' | 'unlimited';

export function validityState(file: Pick<MediaFile, 'validFrom' | 'validTo'>, now = Date.now()): ValidityState {
  if (file.validTo !== undefined && file.validTo !== null && file.validTo < now) return 'expired';
  if (file.validFrom !== undefined && file.validFrom !== null && file.validFrom > now) return 'upcoming';
  if (file.validFrom || file.validTo) return 'valid';

  return 'unlimited';
}

export function ValidityBadge({ file }: { file: Pick<MediaFile, 'validFrom' | 'validTo'> }) {
  const state = validityState(file);
  if (state === 'expired') return <Badge className="bg-red-50 text-red-700 ring-red-200">Expired {formatDate(file.validTo)}</Badge>;
  if (state === 'upcoming') return <Badge className="bg-amber-50 text-amber-800 ring-amber-200">From {formatDate(file.validFrom)}</Badge>;
  if (state === 'valid' && file.validTo) return <Badge>Until {formatDate(file.validTo)}</Badge>;

  return null;
}

export function dimensions(file: Pick<MediaFile, 'width' | 'height'>): string | null {
  return file.width && file.height ? `${file.width}×${file.height}` : null;
}

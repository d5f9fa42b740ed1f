'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Thumbnail } from '@/components/files/file-visuals';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { PlaylistIcon } from '@/components/ui/icons';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { contentResource } from '@/lib/api/content';
import { useFiles } from '@/lib/api/files';

/** What a widget shows that lives elsewhere: an image or video file, or a playlist. */
export type SourceKind = 'image' | 'video' | 'playlist';
export type ChosenSource =
  { kind: 'image' | 'video'; fileId: string; name: string } | { kind: 'playlist'; simpleLoopId: string; name: string };

/** Picks the file or playlist of an image, video or playlist widget (or of the page background). */
export function SourceChooser({
  kind,
  excludeId,
  onChoose,
  onOpenChange,
}: {
  kind: SourceKind | null;
  excludeId: string;
  onChoose: (source: ChosenSource) => void;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('slideEditor.chooser');

  return (
    <Dialog open={kind !== null} onOpenChange={onOpenChange}>
      {kind ? (
        <DialogContent title={t(`title.${kind}`)} className="max-w-2xl">
          <div className="px-5 pt-3 pb-5">
            {kind === 'playlist' ? <Playlists excludeId={excludeId} onChoose={onChoose} /> : <Files kind={kind} onChoose={onChoose} />}
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function Files({ kind, onChoose }: { kind: 'image' | 'video'; onChoose: (source: ChosenSource) => void }) {
  const [text, setText] = useState('');
  const t = useTranslations('slideEditor.chooser');
  const files = useFiles({ page: 0, size: 48, sort: 'name,asc', filters: { text, type: kind } });
  const list = files.data?.content ?? [];

  return (
    <>
      <SearchInput label={t(`search.${kind}`)} placeholder={t('searchFiles')} value={text} onChange={setText} className="w-full" />
      <ul aria-label={t(`list.${kind}`)} className="mt-3 grid max-h-[50vh] grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4">
        {list.map((file) => (
          <li key={file.id}>
            <button
              type="button"
              onClick={() => onChoose({ kind, fileId: file.id, name: file.name ?? '' })}
              className="group w-full cursor-pointer overflow-hidden rounded-md text-left ring-1 ring-zinc-200 hover:ring-2 hover:ring-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
            >
              <Thumbnail file={file} className="aspect-video w-full" />
              <span className="block truncate px-2 py-1 text-xs text-zinc-700">{file.name}</span>
            </button>
          </li>
        ))}
      </ul>
      {files.isPending ? <Spinner className="m-4 size-5" /> : null}
      {files.isSuccess && list.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500">{text ? t(`noMatch.${kind}`) : t(`noFiles.${kind}`)}</p>
      ) : null}
    </>
  );
}

function Playlists({ excludeId, onChoose }: { excludeId: string; onChoose: (source: ChosenSource) => void }) {
  const [text, setText] = useState('');
  const t = useTranslations('slideEditor.chooser');
  const list = contentResource.useList({ page: 0, size: 50, sort: 'name,asc', text, kind: 'playlists', folderId: '' });
  const items = (list.data?.content ?? []).filter((c) => c.id !== excludeId);

  return (
    <>
      <SearchInput label={t('searchPlaylists')} placeholder={t('searchByName')} value={text} onChange={setText} className="w-full" />
      <ul aria-label={t('playlists')} className="mt-3 max-h-[50vh] space-y-1 overflow-y-auto">
        {items.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              onClick={() => onChoose({ kind: 'playlist', simpleLoopId: c.id, name: c.name ?? '' })}
              className="flex w-full cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-left text-sm text-zinc-800 ring-1 ring-zinc-200 hover:ring-2 hover:ring-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
            >
              <PlaylistIcon className="size-5 text-zinc-400" />
              {c.name}
            </button>
          </li>
        ))}
      </ul>
      {list.isPending ? <Spinner className="m-4 size-5" /> : null}
      {list.isSuccess && items.length === 0 ? <p className="mt-3 text-sm text-zinc-500">{t('noPlaylists')}</p> : null}
    </>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { CardGrid, SelectableCard } from '@/components/ui/card-grid';
import { FolderIcon } from '@/components/ui/icons';
import { ValidityBadge } from '@/components/ui/validity';
import { dropTargetProps, setDragItems, type DragItems } from '@/components/files/drag';
import { dimensions, mediaNoun, Thumbnail } from '@/components/files/file-visuals';
import type { MediaFile } from '@/lib/api/files';
import type { FileFolder } from '@/lib/api/file-folders';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

export type GridProps = {
  folders: FileFolder[];
  files: MediaFile[];
  selected: ReadonlySet<string>;
  activeFileId: string | null;
  dimmed: boolean;
  onOpenFolder: (id: string) => void;
  onOpenFile: (id: string) => void;
  onToggle: (id: string, options: { range: boolean }) => void;
  onDrop: (targetFolderId: string, items: DragItems) => void;
  /** Selection feeds the bulk actions, which need EDITOR. */
  selectable: boolean;
};

export function FileGrid({
  folders,
  files,
  selected,
  activeFileId,
  dimmed,
  onOpenFolder,
  onOpenFile,
  onToggle,
  onDrop,
  selectable,
}: GridProps) {
  const t = useTranslations('media');
  const label = useLabel();
  const format = useFormat();

  return (
    <CardGrid label={t('grid.label')} dimmed={dimmed}>
      {folders.map((folder) => (
        <FolderCard key={folder.id} folder={folder} onOpen={onOpenFolder} onDrop={onDrop} />
      ))}
      {files.map((file) => {
        const name = file.name ?? t('untitled');
        const dragIds = selected.has(file.id) ? [...selected] : [file.id];
        const dims = dimensions(file);

        return (
          <SelectableCard
            key={file.id}
            testId="file-card"
            name={name}
            selected={selected.has(file.id)}
            selecting={selected.size > 0}
            active={activeFileId === file.id}
            selectable={selectable}
            onOpen={() => onOpenFile(file.id)}
            onToggle={(options) => onToggle(file.id, options)}
            onDragStart={(e) =>
              setDragItems(
                e,
                { fileIds: dragIds, folderIds: [] },
                dragIds.length > 1 ? format.count(dragIds.length, mediaNoun(t, 'file')) : name,
              )
            }
            preview={
              <>
                <Thumbnail file={file} className="size-full" iconClassName="size-10" />
                {file.contentType?.startsWith('video/') ? (
                  <span className="absolute right-2 bottom-2 rounded bg-zinc-900/70 px-1.5 py-0.5 text-[10px] font-medium tracking-wide text-white uppercase">
                    {label('fileKind', 'video')}
                  </span>
                ) : null}
              </>
            }
          >
            <p className="truncate text-xs text-zinc-500">
              {format.bytes(file.size)}
              {dims ? ` · ${dims}` : ''}
            </p>
            <ValidityBadge file={file} />
          </SelectableCard>
        );
      })}
    </CardGrid>
  );
}

function FolderCard({ folder, onOpen, onDrop }: { folder: FileFolder; onOpen: (id: string) => void; onDrop: GridProps['onDrop'] }) {
  const [over, setOver] = useState(false);
  const t = useTranslations('media');
  const format = useFormat();
  const name = folder.name ?? t('untitled');

  return (
    <li
      data-testid="folder-card"
      aria-label={name}
      draggable
      onDragStart={(e) => setDragItems(e, { fileIds: [], folderIds: [folder.id] }, name)}
      {...dropTargetProps({ onDrop: (items) => onDrop(folder.id, items), setOver })}
      className={cn(
        'rounded-lg bg-white ring-1 ring-zinc-200 transition hover:shadow-sm hover:ring-zinc-300',
        over && 'bg-brand-50 ring-2 ring-brand-500',
      )}
    >
      <button
        type="button"
        onDoubleClick={() => onOpen(folder.id)}
        onClick={() => onOpen(folder.id)}
        className="flex w-full cursor-pointer flex-col text-left"
      >
        <div className="relative flex aspect-[4/3] items-center justify-center overflow-hidden rounded-t-lg bg-zinc-50">
          <FolderIcon className="size-14 text-brand-500/70" />
          {folder.firstFileThumbnail ? (
            // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
            <img
              src={folder.firstFileThumbnail}
              alt=""
              loading="lazy"
              className="absolute right-3 bottom-3 size-9 rounded object-cover ring-2 ring-white"
            />
          ) : null}
        </div>
        <div className="px-3 py-2">
          <p className="truncate text-sm font-medium text-zinc-900">{name}</p>
          <p className="text-xs text-zinc-500">{format.count(folder.fileCount ?? 0, mediaNoun(t, 'file'))}</p>
        </div>
      </button>
    </li>
  );
}

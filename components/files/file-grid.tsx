'use client';

import { useState } from 'react';
import { CheckIcon, FolderIcon } from '@/components/ui/icons';
import { dropTargetProps, setDragItems, type DragItems } from '@/components/files/drag';
import { dimensions, Thumbnail, ValidityBadge } from '@/components/files/file-visuals';
import { formatBytes, type MediaFile } from '@/lib/api/files';
import type { FileFolder } from '@/lib/api/file-folders';
import { cn } from '@/lib/cn';

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

export function FileGrid({ folders, files, selected, activeFileId, dimmed, onOpenFolder, onOpenFile, onToggle, onDrop, selectable }: GridProps) {
  return (
    <ul
      aria-label="Files"
      className={cn('grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-3 p-4', dimmed && 'opacity-60 transition-opacity')}
    >
      {folders.map((folder) => (
        <FolderCard key={folder.id} folder={folder} onOpen={onOpenFolder} onDrop={onDrop} />
      ))}
      {files.map((file) => (
        <FileCard
          key={file.id}
          file={file}
          selected={selected.has(file.id)}
          selecting={selected.size > 0}
          active={activeFileId === file.id}
          dragIds={selected.has(file.id) ? [...selected] : [file.id]}
          selectable={selectable}
          onOpen={onOpenFile}
          onToggle={onToggle}
        />
      ))}
    </ul>
  );
}

function FolderCard({ folder, onOpen, onDrop }: { folder: FileFolder; onOpen: (id: string) => void; onDrop: GridProps['onDrop'] }) {
  const [over, setOver] = useState(false);
  const name = folder.name ?? 'Untitled';

  return (
    <li
      data-testid="folder-card"
      aria-label={name}
      draggable
      onDragStart={(e) => setDragItems(e, { fileIds: [], folderIds: [folder.id] }, name)}
      {...dropTargetProps({ onDrop: (items) => onDrop(folder.id, items), setOver })}
      className={cn('rounded-lg bg-white ring-1 ring-zinc-200 transition hover:shadow-sm hover:ring-zinc-300', over && 'bg-brand-50 ring-2 ring-brand-500')}
    >
      <button type="button" onDoubleClick={() => onOpen(folder.id)} onClick={() => onOpen(folder.id)} className="flex w-full cursor-pointer flex-col text-left">
        <div className="relative flex aspect-[4/3] items-center justify-center overflow-hidden rounded-t-lg bg-zinc-50">
          <FolderIcon className="size-14 text-brand-500/70" />
          {folder.firstFileThumbnail ? (
            // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
            <img src={folder.firstFileThumbnail} alt="" loading="lazy" className="absolute right-3 bottom-3 size-9 rounded object-cover ring-2 ring-white" />
          ) : null}
        </div>
        <div className="px-3 py-2">
          <p className="truncate text-sm font-medium text-zinc-900">{name}</p>
          <p className="text-xs text-zinc-500">{folder.fileCount === 1 ? '1 file' : `${folder.fileCount ?? 0} files`}</p>
        </div>
      </button>
    </li>
  );
}

function FileCard({
  file,
  selected,
  selecting,
  active,
  dragIds,
  selectable,
  onOpen,
  onToggle,
}: {
  selectable: boolean;
  file: MediaFile;
  selected: boolean;
  selecting: boolean;
  active: boolean;
  dragIds: string[];
  onOpen: (id: string) => void;
  onToggle: GridProps['onToggle'];
}) {
  const name = file.name ?? 'Untitled';
  const dims = dimensions(file);

  return (
    <li
      data-testid="file-card"
      aria-label={name}
      draggable
      onDragStart={(e) => setDragItems(e, { fileIds: dragIds, folderIds: [] }, dragIds.length > 1 ? `${dragIds.length} files` : name)}
      className={cn(
        'group relative rounded-lg bg-white ring-1 ring-zinc-200 transition hover:shadow-sm hover:ring-zinc-300',
        selected && 'ring-2 ring-brand-500 hover:ring-brand-500',
        active && !selected && 'ring-2 ring-zinc-900 hover:ring-zinc-900',
      )}
    >
      <button
        type="button"
        className="flex w-full cursor-pointer flex-col text-left"
        onClick={(e) => (e.shiftKey || e.metaKey || e.ctrlKey || selecting ? onToggle(file.id, { range: e.shiftKey }) : onOpen(file.id))}
        aria-label={`Open ${name}`}
      >
        <div className="relative aspect-[4/3] overflow-hidden rounded-t-lg">
          <Thumbnail file={file} className="size-full" iconClassName="size-10" />
          {file.contentType?.startsWith('video/') ? (
            <span className="absolute right-2 bottom-2 rounded bg-zinc-900/70 px-1.5 py-0.5 text-[10px] font-medium tracking-wide text-white uppercase">Video</span>
          ) : null}
        </div>
        <div className="space-y-1 px-3 py-2">
          <p className="truncate text-sm font-medium text-zinc-900" title={name}>
            {name}
          </p>
          <p className="truncate text-xs text-zinc-500">
            {formatBytes(file.size)}
            {dims ? ` · ${dims}` : ''}
          </p>
          <ValidityBadge file={file} />
        </div>
      </button>
      {selectable ? (
        <label
          className={cn(
            'absolute top-2 left-2 flex size-6 cursor-pointer items-center justify-center rounded-md bg-white/95 shadow ring-1 ring-zinc-300 transition',
            selected ? 'bg-brand-600 ring-brand-600' : 'opacity-0 group-hover:opacity-100 focus-within:opacity-100',
            selecting && 'opacity-100',
          )}
        >
          <input
            type="checkbox"
            className="sr-only"
            aria-label={`Select ${name}`}
            checked={selected}
            onChange={(e) => onToggle(file.id, { range: (e.nativeEvent as MouseEvent).shiftKey === true })}
          />
          {selected ? <CheckIcon className="size-4 text-white" /> : null}
        </label>
      ) : null}
    </li>
  );
}

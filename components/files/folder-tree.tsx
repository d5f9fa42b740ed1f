'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { ChevronRightIcon, FolderIcon, FolderOpenIcon, FunnelIcon } from '@/components/ui/icons';
import { dropTargetProps, setDragItems, type DragItems } from '@/components/files/drag';
import { Spinner } from '@/components/ui/spinner';
import { FILTERED_FOLDER, useFolderChildren, useFoldersWithChildren, type FileFolder } from '@/lib/api/file-folders';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';

type TreeProps = {
  rootId: string;
  selectedId: string;
  /** Ancestors of the selected folder (root first), opened so the selection is visible. */
  openPath: readonly string[];
  onSelect: (folderId: string) => void;
  onDrop: (targetFolderId: string, items: DragItems) => void;
  /** The quick filter shown now: its filtered folders are marked selected. */
  selectedQuickFilterId?: string | null;
  /** A filtered folder was chosen: show its quick filter's files. Absent: filtered folders are not listed (move targets). */
  onSelectFiltered?: (quickFilterId: string) => void;
  /** Several folders are picked with checkboxes (the root never): `onSelect` is not used then. */
  pick?: { picked: ReadonlySet<string>; disabled?: ReadonlySet<string>; onToggle: (folder: FileFolder) => void };
};

/**
 * The folders, one level loaded at a time. Stored folders take dropped files and folders; filtered folders
 * (a saved quick filter shown as a folder) are leaves that open their quick filter's files.
 */
export function FolderTree(props: TreeProps) {
  const t = useTranslations('media');

  return (
    <nav aria-label={t('tree.folders')} className="text-sm">
      <ul role="tree" aria-label={t('tree.folders')}>
        <TreeNode {...props} folder={{ id: props.rootId, name: t('allMedia') }} depth={0} isRoot />
      </ul>
    </nav>
  );
}

type NodeProps = TreeProps & {
  folder: FileFolder;
  depth: number;
  isRoot?: boolean;
  /** Known once the parent asked which of its children have children: false hides the expand arrow. */
  hasChildren?: boolean;
};

function TreeNode(props: NodeProps) {
  return props.folder.fileFolderType === FILTERED_FOLDER ? <FilteredNode {...props} /> : <StoredNode {...props} />;
}

function FilteredNode({ folder, depth, selectedQuickFilterId, onSelectFiltered }: NodeProps) {
  const t = useTranslations('media');
  const format = useFormat();
  const label = folder.name ?? t('untitled');
  const selected = Boolean(folder.quickFilterId) && selectedQuickFilterId === folder.quickFilterId;

  return (
    <li role="treeitem" aria-selected={selected}>
      <div
        data-testid={`folder-node-${label}`}
        className={cn(
          'flex items-center rounded-md pr-2 transition-colors',
          selected ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100',
        )}
        style={{ paddingLeft: depth * 14 + 4 + 24 }}
      >
        <button
          type="button"
          onClick={() => folder.quickFilterId && onSelectFiltered?.(folder.quickFilterId)}
          aria-current={selected ? 'page' : undefined}
          title={t('tree.filtered')}
          className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-1.5 text-left"
        >
          <FunnelIcon className="size-4 shrink-0 text-zinc-400" />
          <span className="truncate">{label}</span>
          {folder.fileCount ? (
            <span aria-hidden="true" className="ml-auto pl-2 text-xs text-zinc-400 tabular-nums">
              {format.number(folder.fileCount)}
            </span>
          ) : null}
        </button>
      </div>
    </li>
  );
}

function StoredNode({ folder, depth, isRoot = false, hasChildren, ...props }: NodeProps) {
  const { selectedId, openPath, onSelect, onDrop, pick } = props;
  const t = useTranslations('media');
  const format = useFormat();
  const [open, setOpen] = useState(isRoot || openPath.includes(folder.id));
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (openPath.includes(folder.id)) setOpen(true);
  }, [openPath, folder.id]);
  const includeFiltered = props.onSelectFiltered !== undefined;
  const children = useFolderChildren(folder.id, { enabled: open && hasChildren !== false, includeFiltered });
  const kids = useMemo(() => children.data?.content ?? [], [children.data]);
  // One request per opened level tells which children have children of their own.
  const grandchildren = useFoldersWithChildren(
    useMemo(() => kids.filter((k) => k.fileFolderType !== FILTERED_FOLDER).map((k) => k.id), [kids]),
    { includeFiltered },
  );
  const childHasChildren = (id: string): boolean | undefined =>
    grandchildren.data ? (grandchildren.data.parentIds.includes(id) ? true : grandchildren.data.complete ? false : undefined) : undefined;
  const selected = pick ? pick.picked.has(folder.id) : selectedId === folder.id;
  const leaf = hasChildren === false || (children.isSuccess && kids.length === 0);
  const label = folder.name ?? t('untitled');
  const pickable = Boolean(pick) && !isRoot;

  return (
    <li role="treeitem" aria-expanded={leaf ? undefined : open} aria-selected={selected}>
      <div
        data-testid={`folder-node-${label}`}
        data-drop-over={over || undefined}
        className={cn(
          'group flex items-center rounded-md pr-2 transition-colors',
          selected ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100',
          over && 'bg-brand-100 ring-2 ring-brand-500 ring-inset',
        )}
        style={{ paddingLeft: depth * 14 + 4 }}
        draggable={!isRoot && !pick}
        onDragStart={isRoot || pick ? undefined : (e) => setDragItems(e, { fileIds: [], folderIds: [folder.id] }, label)}
        {...(pick ? {} : dropTargetProps({ onDrop: (items) => onDrop(folder.id, items), setOver }))}
      >
        <button
          type="button"
          aria-label={open ? t('tree.collapse', { name: label }) : t('tree.expand', { name: label })}
          onClick={() => setOpen((o) => !o)}
          className={cn(
            'flex size-6 shrink-0 cursor-pointer items-center justify-center rounded text-zinc-400 hover:text-zinc-700',
            leaf && 'invisible',
          )}
        >
          {children.isFetching && open && !children.data ? (
            <Spinner className="size-3" />
          ) : (
            <ChevronRightIcon className={cn('size-3.5 transition-transform', open && 'rotate-90')} />
          )}
        </button>
        {pickable && pick ? (
          <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-1.5 text-left">
            <input
              type="checkbox"
              className="size-4 shrink-0 cursor-pointer accent-brand-600"
              checked={pick.picked.has(folder.id) || Boolean(pick.disabled?.has(folder.id))}
              disabled={pick.disabled?.has(folder.id)}
              onChange={() => pick.onToggle(folder)}
            />
            <FolderIcon className="size-4 shrink-0 text-zinc-400" />
            <span className="truncate">{label}</span>
          </label>
        ) : pick ? (
          <span className="flex min-w-0 flex-1 items-center gap-2 py-1.5 font-medium">
            <FolderIcon className="size-4 shrink-0 text-zinc-400" />
            <span className="truncate">{label}</span>
          </span>
        ) : (
          <button
            type="button"
            onClick={() => onSelect(folder.id)}
            aria-current={selected ? 'page' : undefined}
            className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-1.5 text-left"
          >
            {selected ? <FolderOpenIcon className="size-4 shrink-0" /> : <FolderIcon className="size-4 shrink-0 text-zinc-400" />}
            <span className={cn('truncate', isRoot && 'font-medium')}>{label}</span>
            {!isRoot && folder.fileCount ? (
              <span aria-hidden="true" className="ml-auto pl-2 text-xs text-zinc-400 tabular-nums">
                {format.number(folder.fileCount)}
              </span>
            ) : null}
          </button>
        )}
      </div>
      {open && kids.length > 0 ? (
        <ul role="group">
          {kids.map((child) => (
            <TreeNode key={child.id} {...props} folder={child} depth={depth + 1} hasChildren={childHasChildren(child.id)} />
          ))}
        </ul>
      ) : null}
      {open && children.isError ? (
        <p className="py-1 text-xs text-red-700" style={{ paddingLeft: depth * 14 + 30 }}>
          {t('tree.error')}
        </p>
      ) : null}
    </li>
  );
}

'use client';

import { useEffect, useState } from 'react';
import { contentDrag, type ContentDragItems } from '@/components/content/content-drag';
import { ChevronRightIcon, FolderIcon, FolderOpenIcon, Icon, type IconProps } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useContentGroupChildren, type ContentGroup } from '@/lib/api/content-groups';
import { cn } from '@/lib/cn';

/** The Templates folder's mark: a folder with a star. */
const TemplatesIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
    <path d="m12 10.2.9 1.8 2 .3-1.45 1.4.35 2-1.8-.95-1.8.95.35-2-1.45-1.4 2-.3.9-1.8Z" />
  </Icon>
);

type TreeProps = {
  root: ContentGroup;
  selectedId: string;
  /** Ancestors of the selected folder (root first), opened so the selection is visible. */
  openPath: readonly string[];
  onSelect: (folder: ContentGroup) => void;
  /** Content and folders dropped on a folder (absent: the tree only picks, as in the move dialog). */
  onDrop?: (target: ContentGroup, items: ContentDragItems) => void;
};

/** The content folders, one level loaded at a time; with `onDrop`, folders take dropped content and folders. */
export function ContentFolderTree(props: TreeProps) {
  return (
    <nav aria-label="Content folders" className="text-sm">
      <ul role="tree" aria-label="Content folders">
        <Node {...props} folder={props.root} depth={0} label="All content" />
      </ul>
    </nav>
  );
}

function Node({ folder, depth, label, ...props }: TreeProps & { folder: ContentGroup; depth: number; label?: string }) {
  const [open, setOpen] = useState(depth === 0 || props.openPath.includes(folder.id));
  const [over, setOver] = useState(false);
  const inPath = props.openPath.includes(folder.id);
  useEffect(() => {
    if (inPath) setOpen(true);
  }, [inPath]);
  const children = useContentGroupChildren(open ? folder.id : undefined);
  const selected = props.selectedId === folder.id;
  const name = label ?? folder.name ?? 'Untitled';
  const count = (folder.contentCount ?? 0) + (folder.simpleLoopCount ?? 0);
  const FolderGlyph = folder.isTemplateGroup ? TemplatesIcon : open ? FolderOpenIcon : FolderIcon;
  const { onDrop } = props;
  // The root and the Templates folder stay put (the API refuses to move them).
  const movable = Boolean(onDrop) && depth > 0 && !folder.isTemplateGroup;

  return (
    <li role="treeitem" aria-selected={selected} aria-expanded={open}>
      <div
        data-testid={`content-folder-${name}`}
        data-drop-over={over || undefined}
        className={cn(
          'group flex items-center rounded-md pr-2 transition-colors',
          selected ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100',
          over && 'bg-brand-100 ring-2 ring-brand-500 ring-inset',
        )}
        style={{ paddingLeft: depth * 14 + 4 }}
        draggable={movable}
        onDragStart={movable ? (e) => contentDrag.set(e, { contentIds: [], contentGroupIds: [folder.id] }, name) : undefined}
        {...contentDrag.targetProps({ onDrop: (items) => onDrop?.(folder, items), setOver, disabled: !onDrop })}
      >
        <button
          type="button"
          aria-label={open ? `Close ${name}` : `Open ${name}`}
          onClick={() => setOpen(!open)}
          className="flex size-6 shrink-0 cursor-pointer items-center justify-center rounded text-zinc-400 hover:text-zinc-700"
        >
          <ChevronRightIcon className={cn('size-3.5 transition-transform', open && 'rotate-90')} />
        </button>
        <button type="button" onClick={() => props.onSelect(folder)} className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-1.5 text-left">
          <FolderGlyph className={cn('size-4 shrink-0', folder.isTemplateGroup ? 'text-amber-500' : selected ? 'text-brand-600' : 'text-zinc-400')} />
          <span className={cn('truncate', selected && 'font-medium')}>{name}</span>
          {count > 0 ? <span className="ml-auto text-xs text-zinc-400 tabular-nums">{count}</span> : null}
        </button>
      </div>
      {open ? (
        children.isPending ? (
          <div className="py-1" style={{ paddingLeft: (depth + 1) * 14 + 30 }}>
            <Spinner className="size-3.5" />
          </div>
        ) : children.data && children.data.content.length > 0 ? (
          <ul role="group">
            {children.data.content.map((child) => (
              <Node key={child.id} {...props} folder={child} depth={depth + 1} />
            ))}
          </ul>
        ) : null
      ) : null}
    </li>
  );
}

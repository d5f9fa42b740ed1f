'use client';

import { useTranslations } from 'next-intl';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { DragChannel } from '@/components/ui/drag';
import { ChevronRightIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import type { Page } from '@/lib/api/types';
import { cn } from '@/lib/cn';

type TreeFolder = { id: string; name?: string };

/** What the tree drags and takes: one drag channel's payload. */
type TreeDrag<F, T> = {
  channel: DragChannel<T>;
  /** The payload of dragging a folder; null: the folder stays put (the root). */
  payloadOf: (folder: F, depth: number) => T | null;
  /** Something dropped on a folder; absent: the tree takes no drops. */
  onDrop?: (target: F, items: T) => void;
};

export type FolderTreeViewProps<F extends TreeFolder, T> = {
  /** The tree's accessible name ("Content folders"). */
  label: string;
  root: F;
  rootLabel: string;
  selectedId: string;
  /** Ancestors of the selected folder (root first), opened so the selection is visible. */
  openPath: readonly string[];
  onSelect: (folder: F) => void;
  /** The sub-folders of a folder (a list query; not run while `parentId` is undefined). */
  useChildren: (parentId: string | undefined) => UseQueryResult<Page<F>>;
  /** The folder's icon. */
  glyph: (folder: F, state: { open: boolean; selected: boolean; depth: number }) => ReactNode;
  /** Shown at the right of a folder's name (counts). */
  badge?: (folder: F) => ReactNode;
  /** `data-testid` of a folder's row: the prefix and the folder's name. */
  testIdPrefix: string;
  drag?: TreeDrag<F, T>;
};

/**
 * A folder tree loaded one level at a time (role=tree): content and device folders draw theirs with it,
 * giving the icon, counts and what is dragged onto and from a folder.
 */
export function FolderTreeView<F extends TreeFolder, T>(props: FolderTreeViewProps<F, T>) {
  return (
    <nav aria-label={props.label} className="text-sm">
      <ul role="tree" aria-label={props.label}>
        <Node {...props} folder={props.root} depth={0} name={props.rootLabel} />
      </ul>
    </nav>
  );
}

function Node<F extends TreeFolder, T>({
  folder,
  depth,
  name: label,
  ...props
}: FolderTreeViewProps<F, T> & { folder: F; depth: number; name?: string }) {
  const { useChildren, drag } = props;
  const [open, setOpen] = useState(depth === 0 || props.openPath.includes(folder.id));
  const [over, setOver] = useState(false);
  const inPath = props.openPath.includes(folder.id);
  useEffect(() => {
    if (inPath) setOpen(true);
  }, [inPath]);
  const children = useChildren(open ? folder.id : undefined);
  const selected = props.selectedId === folder.id;
  const t = useTranslations('ui');
  const name = label ?? folder.name ?? t('untitled');
  const payload = drag ? drag.payloadOf(folder, depth) : null;
  const onDrop = drag?.onDrop;
  const leaf = children.isSuccess && children.data.content.length === 0;

  return (
    <li role="treeitem" aria-selected={selected} aria-expanded={leaf ? undefined : open}>
      <div
        data-testid={`${props.testIdPrefix}-${name}`}
        data-drop-over={over || undefined}
        className={cn(
          'group flex items-center rounded-md pr-2 transition-colors',
          selected ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100',
          over && 'bg-brand-100 ring-2 ring-brand-500 ring-inset',
        )}
        style={{ paddingLeft: depth * 14 + 4 }}
        draggable={payload !== null}
        onDragStart={payload !== null && drag ? (e) => drag.channel.set(e, payload, name) : undefined}
        {...(drag ? drag.channel.targetProps({ onDrop: (items) => onDrop?.(folder, items), setOver, disabled: !onDrop }) : {})}
      >
        <button
          type="button"
          aria-label={open ? t('close', { name }) : t('open', { name })}
          onClick={() => setOpen(!open)}
          className={cn(
            'flex size-6 shrink-0 cursor-pointer items-center justify-center rounded text-zinc-400 hover:text-zinc-700',
            leaf && 'invisible',
          )}
        >
          <ChevronRightIcon className={cn('size-3.5 transition-transform', open && 'rotate-90')} />
        </button>
        <button
          type="button"
          onClick={() => props.onSelect(folder)}
          aria-current={selected ? 'page' : undefined}
          className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-1.5 text-left"
        >
          {props.glyph(folder, { open, selected, depth })}
          <span className={cn('truncate', selected && 'font-medium')}>{name}</span>
          {props.badge ? (
            <span className="ml-auto flex shrink-0 items-center gap-1.5 pl-2 text-xs text-zinc-400 tabular-nums">
              {props.badge(folder)}
            </span>
          ) : null}
        </button>
      </div>
      {open ? (
        children.isPending && children.fetchStatus !== 'idle' ? (
          <div className="py-1" style={{ paddingLeft: (depth + 1) * 14 + 30 }}>
            <Spinner className="size-3.5" />
          </div>
        ) : children.isError ? (
          <p className="py-1 text-xs text-red-700" style={{ paddingLeft: depth * 14 + 30 }}>
            {t('foldersError')}
          </p>
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

'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { FolderLibraryState } from '@/components/folders/use-folder-library';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { GridSkeleton } from '@/components/ui/card-grid';
import { ChevronRightIcon, FolderPlusIcon } from '@/components/ui/icons';
import { SelectionBar } from '@/components/ui/selection-bar';
import { Spinner } from '@/components/ui/spinner';
import type { ListView } from '@/components/ui/view-toggle';
import type { Noun } from '@/lib/format';
import { cn } from '@/lib/cn';

/*
 * The layout of a folder library (media, content, screens): the root's load error or absence, the tree column
 * beside the folder's heading and list, and the folder dialogs, mounted from their first open on (a page loads
 * them with next/dynamic: they bring the form library, which the page's first load does not need). The parts
 * below are what every library draws the same way: the tree's card, the heading with the folder buttons or
 * the breadcrumb, the selection bar and the grid in place of the table. The state is `useFolderLibrary`.
 */

/** The tree column's width (the screens' tree shows online/offline counts beside each folder). */
const TREE_COLUMNS = {
  narrow: 'lg:grid-cols-[15rem_minmax(0,1fr)]',
  medium: 'lg:grid-cols-[16rem_minmax(0,1fr)]',
  wide: 'lg:grid-cols-[17rem_minmax(0,1fr)]',
} as const;

export function FolderLibrary<F>({
  library,
  root,
  words,
  treeWidth = 'medium',
  tree,
  dialogs,
  children,
}: {
  library: FolderLibraryState<F>;
  /** The tree's root folder read (null: the tenant has none). */
  root: UseQueryResult<unknown>;
  words: { rootError: string; noRoot: string };
  treeWidth?: keyof typeof TREE_COLUMNS;
  tree: ReactNode;
  /** The page's folder dialogs (loaded with next/dynamic), given `library.folderDialog`. */
  dialogs: ReactNode;
  /** The folder's heading (`FolderHeading`), the toolbar, notices, selection bar and the list. */
  children: ReactNode;
}) {
  return (
    <>
      {root.isError ? <LoadError className="mb-4" title={words.rootError} error={root.error} onRetry={() => void root.refetch()} /> : null}
      {root.isSuccess && !root.data ? <Alert className="mb-4">{words.noRoot}</Alert> : null}
      <div className={cn('grid gap-6 lg:items-start', TREE_COLUMNS[treeWidth])}>
        <div className="min-w-0">{tree}</div>
        <div className="min-w-0 space-y-4">{children}</div>
      </div>
      {library.folderDialog.loaded ? dialogs : null}
    </>
  );
}

/** The tree in its card: a spinner until the root is read; `footer` under it (a hint, an error). */
export function FolderTreeCard<R>({
  root,
  footer,
  children,
}: {
  root: UseQueryResult<R | null>;
  footer?: ReactNode;
  children: (root: R) => ReactNode;
}) {
  const t = useTranslations('ui.folders');

  return (
    <Card className="h-fit p-2">
      {root.data ? (
        children(root.data)
      ) : root.isPending ? (
        <div className="flex justify-center p-4">
          <Spinner label={t('loading')} className="text-zinc-400" />
        </div>
      ) : null}
      {footer}
    </Card>
  );
}

/** The row above the list: the folder's name or breadcrumb at the left, its actions at the right. */
export function FolderHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex min-h-9 flex-wrap items-center gap-2">
      <div className="mr-auto min-w-0">{children}</div>
      {actions}
    </div>
  );
}

/** The folder's name as the list's heading (`testId` for the browser tests). */
export function FolderTitle({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold text-zinc-900" data-testid={testId}>
      {children}
    </h2>
  );
}

/** The path from the root to the folder shown; every folder but the last opens. */
export function FolderBreadcrumb({
  path,
  rootLabel,
  onOpen,
}: {
  path: readonly { id: string; name?: string | null }[];
  rootLabel: string;
  onOpen: (id: string) => void;
}) {
  const t = useTranslations('ui.folders');

  return (
    <nav aria-label={t('breadcrumb')} className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
      {path.map((folder, i) => (
        <span key={folder.id} className="flex items-center gap-1">
          {i > 0 ? <ChevronRightIcon className="size-3.5 text-zinc-400" /> : null}
          {i === path.length - 1 ? (
            <span aria-current="page" className="font-medium text-zinc-900">
              {i === 0 ? rootLabel : folder.name}
            </span>
          ) : (
            <button
              type="button"
              className="cursor-pointer text-zinc-500 hover:text-zinc-900 hover:underline"
              onClick={() => onOpen(folder.id)}
            >
              {i === 0 ? rootLabel : folder.name}
            </button>
          )}
        </span>
      ))}
    </nav>
  );
}

/** New folder inside `folder` (`canCreate`), and renaming or deleting it (`canChange`): they open the library's folder dialogs. */
export function FolderButtons<F>({
  library,
  folder,
  canCreate,
  canChange,
}: {
  library: FolderLibraryState<F>;
  folder: F;
  canCreate: boolean;
  canChange: boolean;
}) {
  const t = useTranslations('ui.folders');
  const show = library.folderDialog.show;

  return (
    <>
      {canCreate ? (
        <Button variant="secondary" size="sm" onClick={() => show('new', folder)}>
          <FolderPlusIcon className="size-4" />
          {t('newFolder')}
        </Button>
      ) : null}
      {canChange ? (
        <>
          <Button variant="secondary" size="sm" onClick={() => show('rename', folder)}>
            {t('rename')}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => show('delete', folder)}>
            {t('deleteFolder')}
          </Button>
        </>
      ) : null}
    </>
  );
}

type BulkAction = { label: string; onClick: () => void; icon?: ReactNode };

/** The bulk actions over the library's selection, while something is selected. */
export function FolderSelectionBar<F>({
  library,
  noun,
  actions,
  onDelete,
}: {
  library: FolderLibraryState<F>;
  noun: Noun;
  actions: BulkAction[];
  /** Absent: deleting is not offered (role or UI profile). */
  onDelete?: () => void;
}) {
  const { selected, pageIds, selectPage, clear } = library.selection;
  if (selected.size === 0) return null;

  return (
    <SelectionBar
      noun={noun}
      count={selected.size}
      pageCount={pageIds.length}
      onSelectPage={selectPage}
      onClear={clear}
      actions={actions}
      onDelete={onDelete}
    />
  );
}

/**
 * The page drawn in the grid view: a skeleton until the first page is read, nothing when it is empty (the
 * list's empty state says so), else the page's cards. Undefined in the table view, where the list draws its table.
 */
export function gridView(view: ListView, { pending, empty }: { pending: boolean; empty: boolean }, grid: () => ReactNode): ReactNode {
  if (view === 'table') return undefined;

  return pending ? <GridSkeleton /> : empty ? null : grid();
}

/** "Include subfolders": the list shows the items of the folder and of every folder below it. */
export function SubfoldersToggle({
  checked,
  onChange,
  disabled,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const t = useTranslations('ui.folders');

  return (
    <label className="flex cursor-pointer items-center gap-2 px-1 text-sm whitespace-nowrap text-zinc-700">
      <input
        type="checkbox"
        className="size-4 accent-brand-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
      />
      {t('subfolders')}
    </label>
  );
}

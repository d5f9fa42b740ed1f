'use client';

import { useCallback, useMemo, useReducer, useState } from 'react';
import type { ListView } from '@/components/ui/view-toggle';
import { choiceFilter, patternFilter } from '@/lib/hooks/use-list-params';

/*
 * The state every folder library (media, content, screens) keeps the same way: the folder shown, the items
 * picked on the page for bulk actions, the grid or table view and the folder dialog open. The folder and the
 * view live where the page keeps its list state (the URL); the selection and the dialog are the page's own.
 * The rules are plain functions below, so they are tested without a browser (use-folder-library.unit.test.ts).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The URL filters of a library on `useListParams`: `folder` (a folder id; empty: the root) and `view` (the
 * default first: not written to the URL).
 */
export function folderLibraryFilters(views: readonly [ListView, ListView]) {
  return { folder: patternFilter('folder', UUID), view: choiceFilter('view', views) };
}

/** The folder a library shows: the one in the URL, else the root (unknown until the root is read). */
export function currentFolderId(param: string | null | undefined, rootId: string | undefined): string | undefined {
  return param || rootId;
}

/** What the URL says for a folder: nothing for the root, so the plain library has a plain URL. */
export function folderParamOf(folderId: string, rootId: string | undefined): string | null {
  return folderId === rootId ? null : folderId;
}

/** The items picked on one page of one list (`key`: the folder and what else the list shows), and the last click. */
export type Selection = { key: string; ids: ReadonlySet<string>; anchor: string | null };

export type SelectionAction =
  /** The list now shows `key`: a selection made on another folder, filter or page is dropped (and stays dropped). */
  | { type: 'show'; key: string }
  /** A click on an item toggles it; with shift (`range`), every item of the page from the previous click to this one is added. */
  | { type: 'toggle'; id: string; range: boolean; pageIds: readonly string[] }
  /** Every item of `ids` picked (`select`), or none. */
  | { type: 'all'; ids: readonly string[]; select: boolean }
  | { type: 'clear' };

export const NO_SELECTION: Selection = { key: '', ids: new Set(), anchor: null };

export function selectionReducer(state: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case 'show':
      return action.key === state.key ? state : { key: action.key, ids: new Set(), anchor: null };
    case 'toggle': {
      const { id, pageIds } = action;
      const ids = new Set(state.ids);
      const from = state.anchor === null ? -1 : pageIds.indexOf(state.anchor);
      const to = pageIds.indexOf(id);
      if (action.range && from >= 0 && to >= 0) {
        for (const x of pageIds.slice(Math.min(from, to), Math.max(from, to) + 1)) ids.add(x);
      } else if (ids.has(id)) ids.delete(id);
      else ids.add(id);

      return { ...state, ids, anchor: id };
    }
    case 'all':
      return { ...state, ids: new Set(action.select ? action.ids : []), anchor: null };
    case 'clear':
      return state.ids.size === 0 ? state : { ...state, ids: new Set() };
  }
}

export type FolderDialogKind = 'new' | 'rename' | 'delete';

/** The folder dialog open: a new folder inside `folder`, or `folder` renamed or deleted. */
export type FolderDialog<F> = { kind: FolderDialogKind; folder: F };

type Options = {
  /** The tree's root folder, once read. */
  rootId: string | undefined;
  /** The folder in the URL (empty or null: the root). */
  folderParam: string | null | undefined;
  /** Writes the folder into the URL (null: the root); the page adds what opening a folder resets (search, an open item). */
  onFolderParam: (param: string | null) => void;
  view: ListView;
  /** Writes the view; the page and the selection stay (the same items, drawn otherwise). */
  onView: (view: ListView) => void;
  /** The ids of the items on the page, in their order (a shift-click's range). */
  pageIds: readonly string[];
  /** What else the list shows (filters, search, page, size…): the selection is cleared when it changes. */
  listKey: unknown;
};

export function useFolderLibrary<F = { id: string }>({ rootId, folderParam, onFolderParam, view, onView, pageIds, listKey }: Options) {
  const folderId = currentFolderId(folderParam, rootId);
  const key = JSON.stringify([folderId ?? null, listKey]);
  const [stored, dispatch] = useReducer(selectionReducer, NO_SELECTION);
  // Another folder or list: the selection goes now (this render shows none), not after an effect.
  if (stored.key !== key) dispatch({ type: 'show', key });
  const selected = stored.key === key ? stored.ids : NO_SELECTION.ids;
  const [dialog, setDialog] = useState<FolderDialog<F> | null>(null);
  // The dialogs are loaded on the first open (they bring the form library) and stay mounted from then on.
  const [dialogsLoaded, setDialogsLoaded] = useState(false);

  const toggle = useCallback((id: string, { range }: { range: boolean }) => dispatch({ type: 'toggle', id, range, pageIds }), [pageIds]);
  const setAll = useCallback((ids: readonly string[], select: boolean) => dispatch({ type: 'all', ids, select }), []);
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);
  const selectPage = useCallback(() => dispatch({ type: 'all', ids: pageIds, select: true }), [pageIds]);
  const open = useCallback((id: string) => onFolderParam(folderParamOf(id, rootId)), [onFolderParam, rootId]);
  const openDialog = useCallback((kind: FolderDialogKind, folder: F) => {
    setDialogsLoaded(true);
    setDialog({ kind, folder });
  }, []);
  const closeDialog = useCallback(() => setDialog(null), []);
  const selectedIds = useMemo(() => [...selected], [selected]);

  return {
    rootId,
    /** The folder shown (undefined until the root is read). */
    folderId,
    atRoot: folderId !== undefined && folderId === rootId,
    /** Opens a folder (the root: the plain URL). */
    open,
    view,
    setView: onView,
    selection: { selected, selectedIds, pageIds, toggle, setAll, selectPage, clear },
    folderDialog: { open: dialog, loaded: dialogsLoaded, show: openDialog, close: closeDialog },
  };
}

export type FolderLibraryState<F = { id: string }> = ReturnType<typeof useFolderLibrary<F>>;

'use client';

import dynamic from 'next/dynamic';
import { useTranslations } from 'next-intl';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ClockIcon, FolderPlusIcon, TagIcon, UploadIcon } from '@/components/ui/icons';
import type { DragItems } from '@/components/files/drag';
import { FileDetailPanel } from '@/components/files/file-detail-panel';
import { mediaNoun } from '@/components/files/file-visuals';
import { FileGrid } from '@/components/files/file-grid';
import { FileTable } from '@/components/files/file-table';
import {
  BulkFileTagsDialog,
  BulkValidityDialog,
  DeleteFilesDialog,
  MoveFilesDialog,
  RenameFileDialog,
  SaveQuickFilterDialog,
} from '@/components/files/media-dialogs';
import { FolderBreadcrumb, FolderHeading, FolderLibrary, FolderSelectionBar, gridView } from '@/components/folders/folder-library';
import { currentFolderId, useFolderLibrary } from '@/components/folders/use-folder-library';
import { MediaEmpty } from '@/components/files/media-empty';
import { MediaSidebar, QuickFilterHeading } from '@/components/files/media-sidebar';
import { MediaToolbar } from '@/components/files/media-toolbar';
import { useMediaFilters, useMediaParams } from '@/components/files/use-media-params';
import { MediaFolderMenu } from '@/components/files/media-folder-menu';
import { TenantRequired } from '@/components/shell/tenant-required';
import { LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ListResults } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { useBreadcrumb, useFolderChildren, useMoveToFolder, useRootFolder, type FileFolder } from '@/lib/api/file-folders';
import { filterExpr, useFiles, type MediaFile } from '@/lib/api/files';
import { useErrorMessage } from '@/lib/i18n/errors';
import type { QuickFilterCriteria } from '@/lib/api/quick-filters';
import { useCurrentUser } from '@/lib/auth/current-user';
import type { BulkTagsRequest } from '@/components/ui/tags-dialog';
import { hasRole } from '@/server/context/roles';
import { useUiElements } from '@/lib/ui-profile/use-ui-profile';

function LoadingUploader() {
  const t = useTranslations('media.page');

  return (
    <div className="flex h-40 items-center justify-center rounded-lg bg-white ring-1 ring-zinc-200">
      <Spinner label={t('loadingUploader')} className="text-zinc-400" />
    </div>
  );
}

const UploadPanel = dynamic(() => import('@/components/files/upload-panel'), { ssr: false, loading: () => <LoadingUploader /> });
const FileFolderDialogs = dynamic(() => import('@/components/files/file-folder-dialogs'), { ssr: false });

/** Media belong to one tenant: like Teams and Settings, the page asks a switcher to choose one first. */
export function MediaPage() {
  const t = useTranslations('media');

  return (
    <TenantRequired
      title={t('title')}
      description={t('description')}
      belongs={t('tenantRequired.belongs')}
      purpose={t('tenantRequired.purpose')}
    >
      <MediaLibrary />
    </TenantRequired>
  );
}

function MediaLibrary() {
  const t = useTranslations('media');
  const errorMessage = useErrorMessage();
  const me = useCurrentUser();
  const canManageTeams = hasRole(me.role, 'OWNER');
  const canEdit = hasRole(me.role, 'EDITOR');
  const canApprove = hasRole(me.role, 'APPROVER');
  // The user's UI profile may hide uploading and deleting (cosmetic: the API still decides).
  const ui = useUiElements();
  const canUpload = canEdit && ui.ready && ui.isVisible('newUi.media.upload');
  const canDelete = canEdit && ui.ready && ui.isVisible('newUi.media.delete');
  const { list, updateList, state, set } = useMediaParams();
  const root = useRootFolder();
  const rootId = root.data?.id;
  const folderId = currentFolderId(state.folderId, rootId);
  const crumbs = useBreadcrumb(state.folderId && state.folderId !== rootId ? state.folderId : null);
  const path = useMemo(() => crumbs.data ?? (root.data ? [root.data] : []), [crumbs.data, root.data]);
  const current: FileFolder | undefined = path[path.length - 1];
  const openPath = useMemo(() => path.map((f) => f.id), [path]);
  const { activeQuickFilter, preset, filters, hasFilters } = useMediaFilters(state, list, folderId);
  const files = useFiles(
    {
      page: list.page,
      size: list.size,
      sort: `${list.sort.field},${list.sort.direction}`,
      filters,
      quickFilterId: state.quickFilterId ?? undefined,
    },
    { enabled: Boolean(folderId) },
  );
  const showFolders = !hasFilters && !state.recursive;
  const subfolders = useFolderChildren(folderId, { enabled: showFolders });
  const folderCards = showFolders && list.page === 0 ? (subfolders.data?.content ?? []) : [];

  // The selection is cleared whenever the list shows something else.
  const pageFiles = useMemo(() => files.data?.content ?? [], [files.data]);
  const pageIds = useMemo(() => pageFiles.map((f) => f.id), [pageFiles]);
  const library = useFolderLibrary<FileFolder>({
    rootId,
    folderParam: state.folderId,
    onFolderParam: (id) => set({ folderId: id, quickFilterId: null, fileId: null }, { clearText: true }),
    view: state.view,
    onView: (view) => set({ view }),
    pageIds,
    listKey: [filters, state.quickFilterId, list.page, list.size],
  });
  const { selected, selectedIds, toggle, setAll: toggleAll, clear: clearSelection } = library.selection;

  const [uploading, setUploading] = useState(false);
  // Mounted from the first open on, then only hidden: closing the panel does not stop uploads.
  const [uploaderMounted, setUploaderMounted] = useState(false);
  useEffect(() => {
    if (uploading) setUploaderMounted(true);
  }, [uploading]);
  const [renamingFile, setRenamingFile] = useState<MediaFile | null>(null);
  const [deletingFiles, setDeletingFiles] = useState<string[] | null>(null);
  const [tagging, setTagging] = useState<BulkTagsRequest | null>(null);
  const [validityIds, setValidityIds] = useState<string[] | null>(null);
  const [moving, setMoving] = useState<DragItems | null>(null);
  const [savingFilter, setSavingFilter] = useState<QuickFilterCriteria | null>(null);
  const { notice, show: setNotice, clear: clearNotice } = useNotice();

  const move = useMoveToFolder();
  const moveItems = useCallback(
    (targetFolderId: string, items: DragItems) => {
      const folderIds = items.folderIds.filter((id) => id !== targetFolderId);
      if (items.fileIds.length === 0 && folderIds.length === 0) return;
      const count = items.fileIds.length + folderIds.length;
      setNotice({ tone: 'info', text: t('notice.moving', { count }) });
      move.mutate(
        { targetFolderId, fileIds: items.fileIds, folderIds },
        {
          onSuccess: (target) => {
            clearSelection();
            const name = target?.name ?? (targetFolderId === rootId ? t('allMedia') : null);
            setNotice({
              tone: 'info',
              text: name === null ? t('notice.movedToFolder', { count }) : t('notice.moved', { count, target: name }),
            });
          },
          onError: (e) => setNotice({ tone: 'error', text: t('notice.moveFailed', { error: errorMessage(e) }) }),
        },
      );
    },
    [move, rootId, clearSelection, setNotice, t, errorMessage],
  );

  const clearFilters = () => set({ type: null, orientation: null, tags: [], validity: null, quickFilterId: null }, { clearText: true });
  const saveQuickFilter = () => {
    // "Valid now" is stored as the criteria's own switch so the saved filter does not freeze today's date.
    const validNow = state.validity === 'valid';
    const expr = filterExpr({ ...filters, validity: validNow ? undefined : filters.validity });
    setSavingFilter({
      type: 'FILE',
      search: expr?.text ?? '',
      folderId,
      searchRecursively: state.recursive,
      ...(validNow ? { validFileOnly: true, isUndefinedValidityValid: true } : {}),
    });
  };
  const inRoot = !current || current.id === rootId;
  const folderName = inRoot ? t('allMedia') : (current.name ?? t('thisFolder'));
  // Pending also while the list waits for what it needs first (the root folder, the team setting).
  const isFirstLoad = files.isPending;
  const isEmpty = files.isSuccess && pageFiles.length === 0 && folderCards.length === 0;
  const scopeNote = useAccessScopeNote('media');
  const newFolder = () => folderId && library.folderDialog.show('new', { id: folderId });

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEdit ? (
            <>
              <Button variant="secondary" onClick={newFolder} disabled={!folderId}>
                <FolderPlusIcon className="size-4" /> {t('page.newFolder')}
              </Button>
              {canUpload ? (
                <Button onClick={() => setUploading((u) => !u)} aria-expanded={uploading} disabled={!folderId}>
                  <UploadIcon className="size-4" /> {t('page.upload')}
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      <FolderLibrary
        library={library}
        root={root}
        words={{ rootError: t('page.loadError'), noRoot: t('page.noRoot') }}
        treeWidth="narrow"
        tree={
          <MediaSidebar
            rootId={rootId}
            folderId={folderId}
            openPath={openPath}
            onSelectFolder={library.open}
            onDrop={moveItems}
            quickFilterId={state.quickFilterId}
            onSelectQuickFilter={(id) =>
              set(
                { quickFilterId: id, fileId: null, recursive: false, type: null, orientation: null, tags: [], validity: null },
                { clearText: true },
              )
            }
          />
        }
        dialogs={
          <FileFolderDialogs
            dialog={library.folderDialog.open}
            onClose={library.folderDialog.close}
            onCreated={(f) => setNotice({ tone: 'info', text: t('notice.folderCreated', { name: f.name ?? '' }) })}
            onDeleted={(f) => {
              library.open(f.parentId ?? rootId ?? '');
              setNotice({ tone: 'info', text: t('notice.folderDeleted', { name: f.name ?? '' }) });
            }}
          />
        }
      >
        {uploaderMounted && folderId ? (
          <div hidden={!uploading}>
            <UploadPanel folderId={folderId} folderName={folderName} onClose={() => setUploading(false)} />
          </div>
        ) : null}

        <FolderHeading
          actions={
            canEdit && current && current.id !== rootId && !state.quickFilterId ? (
              <MediaFolderMenu
                library={library}
                folder={current}
                onMove={(f) => setMoving({ fileIds: [], folderIds: [f.id] })}
                canManageTeams={canManageTeams}
                canDelete={canDelete}
              />
            ) : null
          }
        >
          {state.quickFilterId ? (
            <QuickFilterHeading
              name={activeQuickFilter?.name}
              preset={preset}
              rootId={rootId}
              onShowAll={() => set({ quickFilterId: null })}
            />
          ) : (
            <FolderBreadcrumb path={path} rootLabel={t('allMedia')} onOpen={library.open} />
          )}
        </FolderHeading>

        <MediaToolbar
          text={list.text}
          onText={(text) => updateList({ text })}
          state={state}
          set={set}
          hasFilters={hasFilters}
          onClearFilters={clearFilters}
          onSaveQuickFilter={saveQuickFilter}
          updating={files.isFetching && !isFirstLoad}
          preset={preset}
        />

        <NoticeAlert notice={notice} onDismiss={clearNotice} />

        {canEdit ? (
          <FolderSelectionBar
            library={library}
            noun={mediaNoun(t, 'file')}
            actions={[
              {
                label: t('page.addTags'),
                onClick: () => setTagging({ ids: selectedIds, verb: 'add' }),
                icon: <TagIcon className="size-4" />,
              },
              { label: t('page.removeTags'), onClick: () => setTagging({ ids: selectedIds, verb: 'remove' }) },
              // The bulk validity endpoint needs APPROVER.
              ...(canApprove
                ? [{ label: t('page.validity'), onClick: () => setValidityIds(selectedIds), icon: <ClockIcon className="size-4" /> }]
                : []),
              { label: t('page.move'), onClick: () => setMoving({ fileIds: selectedIds, folderIds: [] }) },
            ]}
            onDelete={canDelete ? () => setDeletingFiles(selectedIds) : undefined}
          />
        ) : null}

        <div className="flex flex-col gap-5 lg:flex-row lg:items-start">
          <Card className="min-w-0 flex-1 overflow-hidden">
            {files.isError ? (
              <LoadError className="m-4" title={t('page.filesError')} error={files.error} onRetry={() => void files.refetch()} />
            ) : null}
            <ListResults
              identity={{ name: 'files', noun: mediaNoun(t, 'file') }}
              page={files.data}
              isFirstLoad={isFirstLoad}
              onPageChange={(page) => updateList({ page })}
              onSizeChange={(size) => updateList({ size })}
              empty={
                isEmpty ? (
                  <MediaEmpty
                    filtered={hasFilters}
                    onClearFilters={clearFilters}
                    scopeNote={scopeNote}
                    folderName={inRoot ? null : folderName}
                    onUpload={canUpload ? () => setUploading(true) : undefined}
                    onNewFolder={canEdit ? newFolder : undefined}
                  />
                ) : null
              }
            >
              {gridView(library.view, { pending: isFirstLoad || !folderId, empty: false }, () => (
                <FileGrid
                  folders={folderCards}
                  files={pageFiles}
                  selected={selected}
                  activeFileId={state.fileId}
                  dimmed={files.isPlaceholderData}
                  onOpenFolder={library.open}
                  onOpenFile={(id) => set({ fileId: id })}
                  onToggle={toggle}
                  onDrop={moveItems}
                  selectable={canEdit}
                />
              )) ?? (
                <FileTable
                  page={files.data}
                  sort={list.sort}
                  onSortChange={(sort) => updateList({ sort })}
                  selected={selected}
                  onToggle={toggle}
                  onToggleAll={toggleAll}
                  onOpenFile={(id) => set({ fileId: id })}
                  isFirstLoad={isFirstLoad || !folderId}
                  isFetching={files.isFetching}
                  isPlaceholderData={files.isPlaceholderData}
                />
              )}
            </ListResults>
          </Card>

          {state.fileId ? (
            <FileDetailPanel
              key={state.fileId}
              fileId={state.fileId}
              onClose={() => set({ fileId: null })}
              onRename={(file) => setRenamingFile(file)}
              onMove={(file) => setMoving({ fileIds: [file.id], folderIds: [] })}
              onDelete={canDelete ? (file) => setDeletingFiles([file.id]) : undefined}
              onOpenFile={(id) => set({ fileId: id })}
              onMissing={() => {
                set({ fileId: null });
                setNotice({ tone: 'info', text: t('notice.fileGone') });
              }}
            />
          ) : null}
        </div>
      </FolderLibrary>

      <RenameFileDialog
        file={renamingFile ? { id: renamingFile.id, name: renamingFile.name } : null}
        onOpenChange={(open) => !open && setRenamingFile(null)}
      />
      <DeleteFilesDialog
        ids={deletingFiles}
        onOpenChange={(open) => !open && setDeletingFiles(null)}
        onDeleted={(ids) => {
          clearSelection();
          if (state.fileId && ids.includes(state.fileId)) set({ fileId: null });
          setNotice({ tone: 'info', text: t('notice.filesDeleted', { count: ids.length }) });
        }}
      />
      <BulkFileTagsDialog request={tagging} onOpenChange={(open) => !open && setTagging(null)} />
      <BulkValidityDialog ids={validityIds} onOpenChange={(open) => !open && setValidityIds(null)} />
      <MoveFilesDialog items={moving} rootId={rootId} onOpenChange={(open) => !open && setMoving(null)} />
      <SaveQuickFilterDialog
        criteria={savingFilter}
        onOpenChange={(open) => !open && setSavingFilter(null)}
        onSaved={(id) =>
          set({ quickFilterId: id, type: null, orientation: null, tags: [], validity: null, recursive: false }, { clearText: true })
        }
      />
    </>
  );
}

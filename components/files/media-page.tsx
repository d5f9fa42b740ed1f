'use client';

import dynamic from 'next/dynamic';
import { useTranslations } from 'next-intl';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ChevronRightIcon, ClockIcon, FolderIcon, FolderPlusIcon, PhotoIcon, PlusIcon, TagIcon, UploadIcon } from '@/components/ui/icons';
import type { DragItems } from '@/components/files/drag';
import { FileDetailPanel } from '@/components/files/file-detail-panel';
import { mediaNoun } from '@/components/files/file-visuals';
import { FileGrid } from '@/components/files/file-grid';
import { FileTable } from '@/components/files/file-table';
import {
  BulkFileTagsDialog,
  BulkValidityDialog,
  DeleteFilesDialog,
  DeleteFolderDialog,
  MoveFilesDialog,
  NewFolderDialog,
  RenameFileDialog,
  RenameFolderDialog,
  SaveQuickFilterDialog,
} from '@/components/files/media-dialogs';
import { MediaSidebar } from '@/components/files/media-sidebar';
import { MediaToolbar } from '@/components/files/media-toolbar';
import { useMediaParams } from '@/components/files/use-media-params';
import { ResourceTeamsEditor } from '@/components/teams/resource-teams';
import { TenantRequired } from '@/components/shell/tenant-required';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { GridSkeleton } from '@/components/ui/card-grid';
import { EmptyState } from '@/components/ui/data-table';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { PageHeader } from '@/components/ui/page-header';
import { ListResults } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { RowActions } from '@/components/ui/row-actions';
import { SelectionBar } from '@/components/ui/selection-bar';
import { Spinner } from '@/components/ui/spinner';
import { useBreadcrumb, useFolderChildren, useMoveToFolder, useRootFolder, type FileFolder } from '@/lib/api/file-folders';
import { filterExpr, quickFilterView, useFiles, type FileFilters, type MediaFile } from '@/lib/api/files';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useQuickFilters, type QuickFilterCriteria } from '@/lib/api/quick-filters';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useSelection } from '@/lib/hooks/use-selection';
import type { BulkTagsRequest } from '@/components/ui/tags-dialog';
import { useTenant } from '@/lib/tenant/tenant-context';
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
  const { customerId } = useTenant();
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
  const folderId = state.folderId ?? rootId;
  const crumbs = useBreadcrumb(state.folderId && state.folderId !== rootId ? state.folderId : null);
  const path = useMemo(() => crumbs.data ?? (root.data ? [root.data] : []), [crumbs.data, root.data]);
  const current: FileFolder | undefined = path[path.length - 1];
  const openPath = useMemo(() => path.map((f) => f.id), [path]);
  const quickFilters = useQuickFilters('FILE');
  const activeQuickFilter = quickFilters.data?.content.find((qf) => qf.id === state.quickFilterId);
  // An applied quick filter shows its criteria in the controls; the ones it sets are locked (the list is
  // its files AND the other controls), the others narrow it further.
  const preset = useMemo(
    () => (activeQuickFilter ? { name: activeQuickFilter.name, view: quickFilterView(activeQuickFilter.criteria) } : null),
    [activeQuickFilter],
  );
  const locked = preset?.view.filters ?? {};

  const filters: FileFilters = {
    folderId: state.quickFilterId ? undefined : folderId,
    recursive: state.recursive,
    text: locked.text ? undefined : list.text,
    type: locked.type ? undefined : (state.type ?? undefined),
    orientation: locked.orientation ? undefined : (state.orientation ?? undefined),
    tags: state.tags,
    validity: locked.validity ? undefined : (state.validity ?? undefined),
  };
  const hasFilters = Boolean(
    list.text.trim() || state.type || state.orientation || state.tags.length || state.validity || state.quickFilterId,
  );
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

  // Selection: cleared whenever the list shows something else.
  const pageFiles = useMemo(() => files.data?.content ?? [], [files.data]);
  const pageIds = useMemo(() => pageFiles.map((f) => f.id), [pageFiles]);
  const {
    selected,
    toggle,
    setAll: toggleAll,
    clear: clearSelection,
  } = useSelection(pageIds, JSON.stringify([filters, state.quickFilterId, list.page, list.size]));

  // Dialogs and notices.
  const [uploading, setUploading] = useState(false);
  // Mounted from the first open on, then only hidden: closing the panel does not stop uploads.
  const [uploaderMounted, setUploaderMounted] = useState(false);
  useEffect(() => {
    if (uploading) setUploaderMounted(true);
  }, [uploading]);
  const [creatingFolder, setCreatingFolder] = useState(false);
  const [renamingFolder, setRenamingFolder] = useState<FileFolder | null>(null);
  const [deletingFolder, setDeletingFolder] = useState<FileFolder | null>(null);
  const [renamingFile, setRenamingFile] = useState<MediaFile | null>(null);
  const [deletingFiles, setDeletingFiles] = useState<string[] | null>(null);
  const [tagging, setTagging] = useState<BulkTagsRequest | null>(null);
  const [validityIds, setValidityIds] = useState<string[] | null>(null);
  const [moving, setMoving] = useState<DragItems | null>(null);
  const [teamsFolder, setTeamsFolder] = useState<FileFolder | null>(null);
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

  const openFolder = (id: string) => set({ folderId: id === rootId ? null : id, quickFilterId: null, fileId: null }, { clearText: true });
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
  const selectedIds = [...selected];
  const inRoot = !current || current.id === rootId;
  const folderName = inRoot ? t('allMedia') : (current.name ?? t('thisFolder'));
  // Pending also while the list waits for what it needs first (the root folder, the team setting).
  const isFirstLoad = files.isPending;
  const isEmpty = files.isSuccess && pageFiles.length === 0 && folderCards.length === 0;
  const scopeNote = useAccessScopeNote('media');

  const emptyState = hasFilters ? (
    <EmptyState icon={<PhotoIcon className="size-5 text-zinc-500" />} title={t('empty.noMatch')} testId="media-empty">
      <p className="mt-1 text-sm text-zinc-500">{t('empty.noMatchText')}</p>
      <Button variant="secondary" size="sm" className="mt-4" onClick={clearFilters}>
        {t('empty.clearFilters')}
      </Button>
    </EmptyState>
  ) : (
    <EmptyState
      icon={<FolderIcon className="size-5 text-zinc-500" />}
      title={scopeNote ? t('empty.noneVisible') : inRoot ? t('empty.noneYet') : t('empty.folderEmpty', { name: folderName })}
      testId="media-empty"
    >
      <p className="mt-1 text-sm text-zinc-500">{scopeNote ?? t('empty.text')}</p>
      {canEdit ? (
        <div className="mt-4 flex gap-2">
          {canUpload ? (
            <Button size="sm" onClick={() => setUploading(true)}>
              <UploadIcon className="size-4" /> {t('page.uploadFiles')}
            </Button>
          ) : null}
          <Button size="sm" variant="secondary" onClick={() => setCreatingFolder(true)}>
            <PlusIcon className="size-4" /> {t('page.newFolder')}
          </Button>
        </div>
      ) : null}
    </EmptyState>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEdit ? (
            <>
              <Button variant="secondary" onClick={() => setCreatingFolder(true)} disabled={!folderId}>
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
      {root.isError ? (
        <LoadError className="mb-4" title={t('page.loadError')} error={root.error} onRetry={() => void root.refetch()} />
      ) : null}
      {root.isSuccess && !root.data ? <Alert className="mb-4">{t('page.noRoot')}</Alert> : null}

      <div className="flex flex-col gap-5 lg:flex-row lg:items-start">
        <div className="lg:w-60 lg:shrink-0">
          <MediaSidebar
            rootId={rootId}
            folderId={folderId}
            openPath={openPath}
            onSelectFolder={openFolder}
            onDrop={moveItems}
            quickFilterId={state.quickFilterId}
            onSelectQuickFilter={(id) =>
              set(
                { quickFilterId: id, fileId: null, recursive: false, type: null, orientation: null, tags: [], validity: null },
                { clearText: true },
              )
            }
          />
        </div>

        <div className="min-w-0 flex-1 space-y-4">
          {uploaderMounted && folderId ? (
            <div hidden={!uploading}>
              <UploadPanel folderId={folderId} folderName={folderName} onClose={() => setUploading(false)} />
            </div>
          ) : null}

          <div className="flex min-h-9 flex-wrap items-center justify-between gap-2">
            <nav aria-label={t('page.breadcrumb')} className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
              {state.quickFilterId ? (
                <span className="flex flex-wrap items-center gap-x-2 font-medium text-zinc-900">
                  {t('page.quickFilter', { name: activeQuickFilter?.name ?? '…' })}
                  {preset?.view.folderId ? (
                    <QuickFilterFolder folderId={preset.view.folderId} rootId={rootId} recursive={preset.view.recursive} />
                  ) : null}
                  <Button variant="ghost" size="sm" onClick={() => set({ quickFilterId: null })}>
                    {t('page.showAll')}
                  </Button>
                </span>
              ) : (
                path.map((folder, i) => (
                  <span key={folder.id} className="flex items-center gap-1">
                    {i > 0 ? <ChevronRightIcon className="size-3.5 text-zinc-400" /> : null}
                    {i === path.length - 1 ? (
                      <span aria-current="page" className="font-medium text-zinc-900">
                        {i === 0 ? t('allMedia') : folder.name}
                      </span>
                    ) : (
                      <button
                        type="button"
                        className="cursor-pointer text-zinc-500 hover:text-zinc-900 hover:underline"
                        onClick={() => openFolder(folder.id)}
                      >
                        {i === 0 ? t('allMedia') : folder.name}
                      </button>
                    )}
                  </span>
                ))
              )}
            </nav>
            {canEdit && current && current.id !== rootId && !state.quickFilterId ? (
              <RowActions label={t('page.folderActions', { name: current.name ?? '' })}>
                <DropdownMenuItem onSelect={() => setRenamingFolder(current)}>{t('page.renameFolder')}</DropdownMenuItem>
                <DropdownMenuItem onSelect={() => setMoving({ fileIds: [], folderIds: [current.id] })}>
                  {t('page.moveFolder')}
                </DropdownMenuItem>
                {canManageTeams ? <DropdownMenuItem onSelect={() => setTeamsFolder(current)}>{t('page.teams')}</DropdownMenuItem> : null}
                {canDelete ? (
                  <>
                    <DropdownMenuSeparator />
                    <DropdownMenuItem
                      className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                      onSelect={() => setDeletingFolder(current)}
                    >
                      {t('page.deleteFolder')}
                    </DropdownMenuItem>
                  </>
                ) : null}
              </RowActions>
            ) : null}
          </div>

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

          {selected.size > 0 && canEdit ? (
            <SelectionBar
              noun={mediaNoun(t, 'file')}
              count={selected.size}
              pageCount={pageFiles.length}
              onSelectPage={() => toggleAll(pageIds, true)}
              onClear={clearSelection}
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
                empty={isEmpty ? emptyState : null}
              >
                {state.view === 'table' ? (
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
                ) : isFirstLoad || !folderId ? (
                  <GridSkeleton />
                ) : (
                  <FileGrid
                    folders={folderCards}
                    files={pageFiles}
                    selected={selected}
                    activeFileId={state.fileId}
                    dimmed={files.isPlaceholderData}
                    onOpenFolder={openFolder}
                    onOpenFile={(id) => set({ fileId: id })}
                    onToggle={toggle}
                    onDrop={moveItems}
                    selectable={canEdit}
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
        </div>
      </div>

      {folderId ? (
        <NewFolderDialog
          parentId={folderId}
          open={creatingFolder}
          onOpenChange={setCreatingFolder}
          onCreated={(f) => setNotice({ tone: 'info', text: t('notice.folderCreated', { name: f.name ?? '' }) })}
        />
      ) : null}
      <RenameFolderDialog folder={renamingFolder} onOpenChange={(open) => !open && setRenamingFolder(null)} />
      <DeleteFolderDialog
        folder={deletingFolder}
        onOpenChange={(open) => !open && setDeletingFolder(null)}
        onDeleted={(f) => {
          openFolder(f.parentId ?? rootId ?? '');
          setNotice({ tone: 'info', text: t('notice.folderDeleted', { name: f.name ?? '' }) });
        }}
      />
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
      {canManageTeams ? (
        <Dialog open={teamsFolder !== null} onOpenChange={(open) => !open && setTeamsFolder(null)}>
          <DialogContent
            title={t('page.folderTeams')}
            description={t.rich('page.folderTeamsText', {
              name: teamsFolder?.name ?? '',
              em: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
            })}
          >
            <div className="px-5 py-4">
              {teamsFolder ? (
                <ResourceTeamsEditor
                  type="fileFolder"
                  resourceId={teamsFolder.id}
                  resourceName={teamsFolder.name ?? t('theFolder')}
                  customerId={customerId}
                  canManage
                />
              ) : null}
            </div>
          </DialogContent>
        </Dialog>
      ) : null}
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

/** "in Folder (and subfolders)" beside an applied quick filter that is limited to a folder. */
function QuickFilterFolder({ folderId, rootId, recursive }: { folderId: string; rootId: string | undefined; recursive: boolean }) {
  const t = useTranslations('media');
  const crumbs = useBreadcrumb(folderId === rootId ? null : folderId);
  const name = folderId === rootId ? t('allMedia') : (crumbs.data?.[crumbs.data.length - 1]?.name ?? '…');

  return <span className="text-sm font-normal text-zinc-500">{t('page.inFolder', { name, recursive: String(recursive) })}</span>;
}

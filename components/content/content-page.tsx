'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { useCallback, useMemo, useState } from 'react';
import { contentColumns, ItemMenu, type ItemAction } from '@/components/content/content-columns';
import type { ContentDragItems } from '@/components/content/content-drag';
import { ContentFolderTree } from '@/components/content/content-folder-tree';
import { ContentGrid } from '@/components/content/content-grid';
import {
  DeleteContentDialog,
  DuplicateContentDialog,
  MoveContentDialog,
  NewPlaylistDialog,
  NewSlideDialog,
} from '@/components/content/content-dialogs';
import {
  FolderButtons,
  FolderHeading,
  FolderLibrary,
  FolderSelectionBar,
  FolderTitle,
  FolderTreeCard,
  gridView,
} from '@/components/folders/folder-library';
import { currentFolderId, folderLibraryFilters, useFolderLibrary } from '@/components/folders/use-folder-library';
import { TenantRequired } from '@/components/shell/tenant-required';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/field';
import { PlaylistIcon, PlusIcon, SlideIcon, TagIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { BulkTagsDialog, EditTagsDialog, type BulkTagsRequest } from '@/components/ui/tags-dialog';
import { ViewToggle } from '@/components/ui/view-toggle';
import {
  CONTENT_KINDS,
  contentResource,
  useBulkContentTags,
  useLockContent,
  useSetContentTags,
  type ContentKindFilter,
  type DeviceContent,
} from '@/lib/api/content';
import { contentGroupResource, useContentRoot, useMoveToContentGroup, type ContentGroup } from '@/lib/api/content-groups';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'lastSaved'] as const;
const FILTERS = { ...folderLibraryFilters(['table', 'grid']), kind: choiceFilter('kind', CONTENT_KINDS) };
const ContentFolderDialogs = dynamic(() => import('@/components/content/content-folder-dialogs'), { ssr: false });

/** Content belongs to one tenant: the page asks a switcher to choose one first, like the media page. */
export function ContentPage() {
  const t = useTranslations('content');

  return (
    <TenantRequired title={t('title')} description={t('tenant.description')} belongs={t('tenant.belongs')} purpose={t('tenant.purpose')}>
      <ContentLibrary />
    </TenantRequired>
  );
}

function ContentLibrary() {
  const router = useRouter();
  const t = useTranslations('content');
  const errorMessage = useErrorMessage();
  const label = useLabel();
  const format = useFormat();
  const items = useMemo(() => ({ one: t('noun.one'), other: t('noun.other') }), [t]);
  const me = useCurrentUser();
  const canEdit = hasRole(me.role, 'EDITOR');
  const canApprove = hasRole(me.role, 'APPROVER');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const root = useContentRoot();
  const folderId = currentFolderId(params.folder, root.data?.id) ?? '';
  const folder = contentGroupResource.useDetail(params.folder || null, { select: 'name,parentId,isTemplateGroup,contentGroupPath' });
  const current: ContentGroup | undefined = params.folder ? folder.data : (root.data ?? undefined);
  const searching = Boolean(params.text.trim());
  const query = contentResource.useList(
    {
      page: params.page,
      size: params.size,
      sort: sortParam(params.sort),
      text: params.text,
      kind: params.kind,
      folderId: searching ? '' : folderId,
      withPreview: params.view === 'grid',
    },
    { enabled: Boolean(folderId) },
  );
  const pageItems = useMemo(() => query.data?.content ?? [], [query.data]);
  const pageIds = useMemo(() => pageItems.map((i) => i.id), [pageItems]);
  const library = useFolderLibrary<ContentGroup>({
    rootId: root.data?.id,
    folderParam: params.folder,
    onFolderParam: (folder) => update({ folder: folder ?? '' }),
    view: params.view,
    onView: (view) => update({ view, page: params.page }),
    pageIds,
    listKey: [params.text, params.kind, params.page, params.size, params.sort],
  });
  const { selected, selectedIds, toggle, setAll, clear: clearSelection } = library.selection;
  const { notice, show, clear: clearNotice } = useNotice();
  const lock = useLockContent();
  const setTags = useSetContentTags();
  const bulkTags = useBulkContentTags();
  const move = useMoveToContentGroup();
  const [creating, setCreating] = useState<'playlist' | 'slide' | null>(null);
  const [itemAction, setItemAction] = useState<ItemAction | null>(null);
  const [tagging, setTagging] = useState<BulkTagsRequest | null>(null);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const [moving, setMoving] = useState<ContentDragItems | null>(null);
  const openPath = (current?.contentGroupPath ?? '').split('/').filter(Boolean);
  const isTop = !current || current.parentId == null;
  const scopeNote = useAccessScopeNote('content');
  const folderName = isTop ? t('folders.root') : (current?.name ?? '');
  const opened = (item: DeviceContent) => router.push(`/content/${item.id}`);

  /**
   * Moves content and folders into a folder. Locked items are refused here with the reason (the API would
   * refuse the whole move), items already there are left out; throws what refused the move.
   */
  const moveItems = useCallback(
    async (targetId: string, items: ContentDragItems) => {
      const known = new Map(pageItems.map((i) => [i.id, i]));
      const locked = items.contentIds.filter((id) => known.get(id)?.locked);
      const contentIds = items.contentIds.filter((id) => !locked.includes(id) && known.get(id)?.contentGroupId !== targetId);
      const contentGroupIds = items.contentGroupIds.filter((id) => id !== targetId);
      const lockedNote =
        locked.length === 1
          ? t('library.lockedOne', { name: known.get(locked[0]!)?.name ?? '' })
          : locked.length > 1
            ? t('library.lockedMany', { count: locked.length })
            : '';
      if (contentIds.length === 0 && contentGroupIds.length === 0) {
        if (lockedNote) throw new Error(lockedNote);
        show({ tone: 'info', text: t('library.alreadyThere') });

        return;
      }
      const target = await move.mutateAsync({ targetGroupId: targetId, contentIds, contentGroupIds });
      clearSelection();
      const count = contentIds.length + contentGroupIds.length;
      const moved = t('library.moved', {
        count,
        folder: target.parentId == null ? t('folders.root') : (target.name ?? t('library.theFolder')),
      });
      show({ tone: 'info', text: lockedNote ? `${moved} ${lockedNote}` : moved });
    },
    [pageItems, move, clearSelection, show, t],
  );
  const dropOn = useCallback(
    (target: ContentGroup, items: ContentDragItems) => {
      show({ tone: 'info', text: t('library.moving') });
      moveItems(target.id, items).catch((e: unknown) => show({ tone: 'error', text: errorMessage(e) }));
    },
    [moveItems, show, t, errorMessage],
  );

  const onItemAction = useCallback((action: ItemAction) => {
    if (action.kind === 'delete') setDeleting([action.item.id]);
    else if (action.kind === 'move') setMoving({ contentIds: [action.item.id], contentGroupIds: [] });
    else setItemAction(action);
  }, []);
  const menu = useCallback(
    (item: DeviceContent) => (
      <ItemMenu
        item={item}
        can={{ canEdit, canApprove }}
        onAction={onItemAction}
        onLock={(i) => lock.mutate({ item: i, locked: !i.locked })}
      />
    ),
    [canEdit, canApprove, onItemAction, lock],
  );
  const columns = useMemo(
    () =>
      contentColumns({ selecting: canEdit ? { selected, pageIds, onToggle: toggle, onToggleAll: setAll } : null, menu, t, label, format }),
    [canEdit, selected, pageIds, toggle, setAll, menu, t, label, format],
  );

  const tagNotice = (request: BulkTagsRequest, tags: string[], updated: number) => {
    const lockedCount = request.ids.filter((id) => pageItems.find((i) => i.id === id)?.locked).length;
    const words = { tagCount: tags.length, tags: tags.join(', '), count: updated };
    const done = request.verb === 'add' ? t('library.tagsAdded', words) : t('library.tagsRemoved', words);

    return lockedCount ? `${done} ${t('library.tagsKept', { count: lockedCount })}` : done;
  };

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('library.description')}
        actions={
          canEdit && folderId ? (
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => setCreating('slide')}>
                <SlideIcon className="size-4" />
                {t('library.newSlide')}
              </Button>
              <Button onClick={() => setCreating('playlist')}>
                <PlusIcon className="size-4" />
                {t('library.newPlaylist')}
              </Button>
            </div>
          ) : null
        }
      />
      <NewPlaylistDialog
        open={creating === 'playlist'}
        folderId={folderId}
        onOpenChange={(open) => setCreating(open ? 'playlist' : null)}
        onCreated={opened}
      />
      <NewSlideDialog
        open={creating === 'slide'}
        folderId={folderId}
        onOpenChange={(open) => setCreating(open ? 'slide' : null)}
        onCreated={opened}
      />
      <DuplicateContentDialog item={itemAction?.kind === 'duplicate' ? itemAction.item : null} onOpenChange={() => setItemAction(null)} />
      <EditTagsDialog
        item={itemAction?.kind === 'tags' ? itemAction.item : null}
        suggest="deviceContentTags"
        onOpenChange={() => setItemAction(null)}
        onSubmit={(tags) => setTags.mutateAsync({ id: itemAction!.item.id, tags })}
      />
      <BulkTagsDialog
        request={tagging}
        noun={items}
        suggest="deviceContentTags"
        onOpenChange={(open) => !open && setTagging(null)}
        onSubmit={async (request, tags) => {
          const { updated } = await bulkTags.mutateAsync({ ids: request.ids, verb: request.verb, tags });
          show({ tone: 'info', text: tagNotice(request, tags, updated) });
        }}
      />
      <DeleteContentDialog
        ids={deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        onDeleted={(ids) => {
          clearSelection();
          show({ tone: 'info', text: t('library.deleted', { count: ids.length }) });
        }}
      />
      <MoveContentDialog items={moving} root={root.data ?? undefined} onOpenChange={(open) => !open && setMoving(null)} move={moveItems} />
      <FolderLibrary
        library={library}
        root={root}
        words={{ rootError: t('library.rootError'), noRoot: t('library.noRoot') }}
        tree={
          <FolderTreeCard root={root}>
            {(top) => (
              <ContentFolderTree
                root={top}
                selectedId={folderId}
                openPath={openPath}
                onSelect={(f) => library.open(f.id)}
                onDrop={canEdit ? dropOn : undefined}
              />
            )}
          </FolderTreeCard>
        }
        dialogs={
          <ContentFolderDialogs
            dialog={library.folderDialog.open}
            onClose={library.folderDialog.close}
            onCreated={(created) => update({ folder: created.id })}
            onDeleted={() => update({ folder: '' })}
          />
        }
      >
        <FolderHeading
          actions={
            canEdit && current && !searching ? (
              <FolderButtons library={library} folder={current} canCreate canChange={!isTop && !current.isTemplateGroup} />
            ) : null
          }
        >
          <FolderTitle testId="content-folder-title">{searching ? t('library.searchResults') : folderName}</FolderTitle>
        </FolderHeading>
        <ResourceList
          identity={{ name: 'content', noun: items }}
          list={list}
          query={query}
          columns={columns}
          getRowId={(item) => item.id}
          sortable={SORTABLE}
          search={{ label: t('library.searchLabel'), placeholder: t('library.searchPlaceholder') }}
          filters={
            <div className="shrink-0">
              <FilterSelect
                aria-label={t('library.show')}
                value={params.kind}
                onChange={(e) => update({ kind: e.target.value as ContentKindFilter })}
              >
                {CONTENT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`library.kinds.${kind}`)}
                  </option>
                ))}
              </FilterSelect>
            </div>
          }
          toolbarEnd={<ViewToggle value={library.view} onChange={library.setView} />}
          notices={
            <>
              <NoticeAlert notice={notice} onDismiss={clearNotice} />
              {canEdit ? (
                <FolderSelectionBar
                  library={library}
                  noun={items}
                  actions={[
                    {
                      label: t('library.addTags'),
                      onClick: () => setTagging({ ids: selectedIds, verb: 'add' }),
                      icon: <TagIcon className="size-4" />,
                    },
                    { label: t('library.removeTags'), onClick: () => setTagging({ ids: selectedIds, verb: 'remove' }) },
                    { label: t('library.move'), onClick: () => setMoving({ contentIds: selectedIds, contentGroupIds: [] }) },
                  ]}
                  onDelete={() => setDeleting(selectedIds)}
                />
              ) : null}
            </>
          }
          isFiltered={params.kind !== 'all'}
          onClearFilters={() => update({ kind: 'all' })}
          errorTitle={t('library.loadError')}
          empty={{
            icon: <PlaylistIcon className="size-5 text-zinc-500" />,
            title: scopeNote ? t('library.emptyScoped') : t('library.empty'),
            body: scopeNote ?? t('library.emptyBody'),
            action: canEdit ? (
              <Button size="sm" onClick={() => setCreating('playlist')}>
                <PlusIcon className="size-4" />
                {t('library.newPlaylist')}
              </Button>
            ) : null,
          }}
          filteredHint={t('library.filteredHint')}
        >
          {gridView(library.view, { pending: query.isPending, empty: pageItems.length === 0 }, () => (
            <ContentGrid
              items={pageItems}
              selected={selected}
              dimmed={query.isPlaceholderData}
              selectable={canEdit}
              onOpen={opened}
              onToggle={toggle}
              menuOf={menu}
            />
          ))}
        </ResourceList>
      </FolderLibrary>
    </>
  );
}

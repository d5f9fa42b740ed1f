'use client';

import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { ContentFolderTree } from '@/components/content/content-folder-tree';
import {
  DeleteContentDialog,
  DeleteContentFolderDialog,
  DuplicateContentDialog,
  NewContentFolderDialog,
  NewPlaylistDialog,
  NewSlideDialog,
  RenameContentFolderDialog,
} from '@/components/content/content-dialogs';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { Select } from '@/components/ui/field';
import { FolderPlusIcon, LockIcon, PlaylistIcon, PlusIcon, SlideIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { CONTENT_KINDS, contentResource, kindLabel, useLockContent, type ContentKindFilter, type DeviceContent } from '@/lib/api/content';
import { contentGroupResource, useContentRoot, type ContentGroup } from '@/lib/api/content-groups';
import { useCurrentUser } from '@/lib/auth/current-user';
import { formatDateTime } from '@/lib/format';
import { choiceFilter, patternFilter, sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'lastSaved'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTERS = { folder: patternFilter('folder', UUID), kind: choiceFilter('kind', CONTENT_KINDS) };
const KIND_LABELS: Record<ContentKindFilter, string> = { all: 'Playlists and slides', playlists: 'Playlists', slides: 'Slides' };

type ItemAction = { kind: 'duplicate' | 'delete'; item: DeviceContent };
type FolderAction = { kind: 'new' | 'rename' | 'delete'; folder: ContentGroup };

/** Content belongs to one tenant: the page asks a switcher to choose one first, like the media page. */
export function ContentPage() {
  const { canSwitch, tenant, all } = useTenant();
  if (canSwitch && !tenant) {
    return (
      <>
        <PageHeader title="Content" description="Playlists and slides for your screens." />
        <Alert tone="info" title="Choose a tenant.">
          Content belongs to one tenant, and {all.phrase} hold many. Pick the tenant in the switcher above to see and build its playlists and slides.
        </Alert>
      </>
    );
  }

  return <ContentLibrary />;
}

function buildColumns(canEdit: boolean, canApprove: boolean, onAction: (action: ItemAction) => void, onLock: (item: DeviceContent) => void): ColumnDef<DeviceContent>[] {
  return [
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => {
        const item = row.original;
        const Glyph = item.deviceContentType === 'simpleLoop' ? PlaylistIcon : SlideIcon;

        return (
          <div className="flex min-w-0 items-center gap-3">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-zinc-100 text-zinc-500">
              <Glyph className="size-4" />
            </span>
            <div className="min-w-0">
              <Link href={`/content/${item.id}`} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                {item.name}
              </Link>
              {item.comment ? <p className="max-w-md truncate text-xs text-zinc-500">{item.comment}</p> : null}
            </div>
          </div>
        );
      },
    },
    {
      id: 'type',
      header: 'Type',
      enableSorting: false,
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-zinc-600">
          {kindLabel(row.original)}
          {row.original.orientation ? <span className="text-zinc-400"> · {row.original.orientation}</span> : null}
        </span>
      ),
    },
    {
      id: 'tags',
      header: 'Tags',
      enableSorting: false,
      cell: ({ row }) => (
        <div className="flex max-w-56 flex-wrap gap-1">
          {(row.original.tags ?? []).slice(0, 4).map((tag) => (
            <Badge key={tag}>{tag}</Badge>
          ))}
        </div>
      ),
    },
    {
      id: 'lastSaved',
      accessorKey: 'lastSaved',
      header: 'Last saved',
      cell: ({ row }) => (
        <div className="whitespace-nowrap text-zinc-600">
          {row.original.locked ? (
            <Badge tone="brand" className="mr-2">
              <LockIcon className="mr-1 size-3" />
              Locked
            </Badge>
          ) : null}
          {formatDateTime(row.original.lastSaved)}
          {row.original.lastSavedBy?.name ? <span className="block text-xs text-zinc-400">{row.original.lastSavedBy.name}</span> : null}
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const item = row.original;

        return (
          <RowActions label={`Actions for ${item.name}`}>
            <DropdownMenuItem asChild>
              <Link href={`/content/${item.id}`}>{canEdit && !item.locked ? 'Edit' : 'Open'}</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link href={`/content/${item.id}/preview`}>Preview</Link>
            </DropdownMenuItem>
            {canEdit ? <DropdownMenuItem onSelect={() => onAction({ kind: 'duplicate', item })}>Make a copy</DropdownMenuItem> : null}
            {canApprove ? <DropdownMenuItem onSelect={() => onLock(item)}>{item.locked ? 'Unlock' : 'Lock'}</DropdownMenuItem> : null}
            {canEdit && !item.locked ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onAction({ kind: 'delete', item })}>
                  Delete
                </DropdownMenuItem>
              </>
            ) : null}
          </RowActions>
        );
      },
    },
  ];
}

function ContentLibrary() {
  const router = useRouter();
  const me = useCurrentUser();
  const canEdit = hasRole(me.role, 'EDITOR');
  const canApprove = hasRole(me.role, 'APPROVER');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const root = useContentRoot();
  const folderId = params.folder || root.data?.id || '';
  const folder = contentGroupResource.useDetail(params.folder || null, { select: 'name,parentId,isTemplateGroup,contentGroupPath' });
  const current: ContentGroup | undefined = params.folder ? folder.data : (root.data ?? undefined);
  const query = contentResource.useList(
    { page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text, kind: params.kind, folderId: params.text.trim() ? '' : folderId },
    { enabled: Boolean(folderId) },
  );
  const lock = useLockContent();
  const [creating, setCreating] = useState<'playlist' | 'slide' | null>(null);
  const [itemAction, setItemAction] = useState<ItemAction | null>(null);
  const [folderAction, setFolderAction] = useState<FolderAction | null>(null);
  const columns = useMemo(() => buildColumns(canEdit, canApprove, setItemAction, (item) => lock.mutate({ item, locked: !item.locked })), [canEdit, canApprove, lock]);
  const openPath = (current?.contentGroupPath ?? '').split('/').filter(Boolean);
  const isTop = !current || current.parentId == null;
  const folderName = isTop ? 'All content' : (current?.name ?? '');
  const opened = (item: DeviceContent) => router.push(`/content/${item.id}`);

  return (
    <>
      <PageHeader
        title="Content"
        description="Playlists and slides for your screens, in folders."
        actions={
          canEdit && folderId ? (
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => setCreating('slide')}>
                <SlideIcon className="size-4" />
                New slide
              </Button>
              <Button onClick={() => setCreating('playlist')}>
                <PlusIcon className="size-4" />
                New playlist
              </Button>
            </div>
          ) : null
        }
      />
      <NewPlaylistDialog open={creating === 'playlist'} folderId={folderId} onOpenChange={(open) => setCreating(open ? 'playlist' : null)} onCreated={opened} />
      <NewSlideDialog open={creating === 'slide'} folderId={folderId} onOpenChange={(open) => setCreating(open ? 'slide' : null)} onCreated={opened} />
      <DuplicateContentDialog item={itemAction?.kind === 'duplicate' ? itemAction.item : null} onOpenChange={() => setItemAction(null)} />
      <DeleteContentDialog item={itemAction?.kind === 'delete' ? itemAction.item : null} onOpenChange={() => setItemAction(null)} />
      <NewContentFolderDialog
        parent={folderAction?.kind === 'new' ? { id: folderAction.folder.id, name: folderName } : null}
        onOpenChange={() => setFolderAction(null)}
        onCreated={(created) => update({ folder: created.id })}
      />
      <RenameContentFolderDialog folder={folderAction?.kind === 'rename' ? folderAction.folder : null} onOpenChange={() => setFolderAction(null)} />
      <DeleteContentFolderDialog folder={folderAction?.kind === 'delete' ? folderAction.folder : null} onOpenChange={() => setFolderAction(null)} onDeleted={() => update({ folder: '' })} />

      {root.isSuccess && !root.data ? <Alert className="mb-4">This tenant has no content root folder.</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <Card className="h-fit p-2">
          {root.data ? (
            <ContentFolderTree root={root.data} selectedId={folderId} openPath={openPath} onSelect={(f) => update({ folder: f.parentId == null ? '' : f.id })} />
          ) : null}
        </Card>
        <div className="min-w-0">
          <div className="mb-3 flex flex-wrap items-center gap-2">
            <h2 className="mr-auto text-base font-semibold text-zinc-900" data-testid="content-folder-title">
              {params.text.trim() ? `Search results in all folders` : folderName}
            </h2>
            {canEdit && current && !params.text.trim() ? (
              <>
                <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'new', folder: current })}>
                  <FolderPlusIcon className="size-4" />
                  New folder
                </Button>
                {!isTop && !current.isTemplateGroup ? (
                  <>
                    <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'rename', folder: current })}>
                      Rename
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'delete', folder: current })}>
                      Delete folder
                    </Button>
                  </>
                ) : null}
              </>
            ) : null}
          </div>
          <ResourceList
            identity={{ name: 'content', noun: { one: 'item', other: 'items' } }}
            list={list}
            query={query}
            columns={columns}
            getRowId={(item) => item.id}
            sortable={SORTABLE}
            search={{ label: 'Search content by name', placeholder: 'Search all folders by name' }}
            filters={
              <div className="w-56">
              <Select aria-label="Show" value={params.kind} onChange={(e) => update({ kind: e.target.value as ContentKindFilter })}>
                {CONTENT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {KIND_LABELS[kind]}
                  </option>
                ))}
              </Select>
              </div>
            }
            isFiltered={params.kind !== 'all'}
            onClearFilters={() => update({ kind: 'all' })}
            errorTitle="The content could not be loaded."
            empty={{
              icon: <PlaylistIcon className="size-5 text-zinc-500" />,
              title: 'Nothing in this folder yet',
              body: 'Build a playlist from your media, or a slide from a template.',
              action: canEdit ? (
                <Button size="sm" onClick={() => setCreating('playlist')}>
                  <PlusIcon className="size-4" />
                  New playlist
                </Button>
              ) : null,
            }}
            filteredHint="Try other words, or show every type."
          />
        </div>
      </div>
    </>
  );
}

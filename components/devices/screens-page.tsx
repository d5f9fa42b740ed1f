'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AddScreenDialog } from '@/components/devices/add-screen-dialog';
import type { DeviceDragItems } from '@/components/devices/device-drag';
import {
  DeleteDeviceFolderDialog,
  MoveScreensDialog,
  NewDeviceFolderDialog,
  RenameDeviceFolderDialog,
} from '@/components/devices/device-folder-dialogs';
import { DeviceFolderTree, isVideoWall, VideoWallIcon } from '@/components/devices/device-folder-tree';
import { EditScreenDialog } from '@/components/devices/edit-screen-dialog';
import { NowPlayingProvider } from '@/components/devices/now-playing';
import { BatchCommandDialog, type BatchCommand, type BatchRequest } from '@/components/devices/screen-batch';
import { screenColumns, ScreenMenu, type ScreenAction } from '@/components/devices/screen-columns';
import { ScreenGrid } from '@/components/devices/screen-grid';
import { ScreenStatusFilter } from '@/components/devices/screen-status-filter';
import { TenantsScreens } from '@/components/devices/tenants-screens';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { GridSkeleton } from '@/components/ui/card-grid';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterSelect } from '@/components/ui/field';
import { FolderPlusIcon, MonitorIcon, PlusIcon, TagIcon, XIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { SelectionBar } from '@/components/ui/selection-bar';
import { Spinner } from '@/components/ui/spinner';
import { BulkTagsDialog, type BulkTagsRequest } from '@/components/ui/tags-dialog';
import { ViewToggle } from '@/components/ui/view-toggle';
import { deviceGroupResource, useDeviceGroupCounts, useDeviceRoot, useMoveDeviceGroup, type DeviceGroup } from '@/lib/api/device-groups';
import {
  deviceResource,
  LICENSE_FILTERS,
  STATUS_FILTERS,
  useBulkDeviceTags,
  useDeleteDevice,
  useDeviceCommand,
  useMoveDevices,
  type Device,
  type LicenseFilter,
} from '@/lib/api/devices';
import { useTags } from '@/lib/api/tags';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, patternFilter, sortParam, useListParams, type SortState, type UrlFilter } from '@/lib/hooks/use-list-params';
import { useSelection } from '@/lib/hooks/use-selection';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'deviceStatus', 'lastActivity'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VIEWS = ['table', 'grid'] as const;
/** Tags in the URL as `tags=a,b` (the API's tag format has no comma). */
const tagsFilter: UrlFilter<string[]> = {
  key: 'tags',
  parse: (raw) => (raw ? raw.split(',').filter(Boolean) : []),
  format: (value) => (value.length ? value.join(',') : null),
};
const FILTERS = {
  folder: patternFilter('folder', UUID),
  // Subfolders are included unless `sub=0`: the tree's counts are of a folder and everything below it.
  sub: choiceFilter('sub', ['1', '0']),
  status: choiceFilter('status', STATUS_FILTERS),
  license: choiceFilter('license', LICENSE_FILTERS),
  tags: tagsFilter,
  view: choiceFilter('view', VIEWS),
};
const BATCH_ORDER: BatchCommand[] = ['restart', 'refresh', 'displayOn', 'displayOff', 'volume', 'screenshot'];

type FolderAction = { kind: 'new' | 'rename' | 'delete'; folder: DeviceGroup };

/**
 * One tenant's screens in folders; under "All tenants" or a whole network, every screen of the tenants the
 * caller manages in one list, each opening in its tenant.
 */
export function ScreensPage() {
  const { acrossTenants } = useTenant();

  return acrossTenants ? <TenantsScreens /> : <ScreenConsole />;
}

function ScreenConsole() {
  const t = useTranslations('devices');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const screensNoun = useMemo(() => ({ one: t('noun.one'), other: t('noun.other') }), [t]);
  const me = useCurrentUser();
  const router = useRouter();
  const canManage = hasRole(me.role, 'TECHNICIAN');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const root = useDeviceRoot();
  const counts = useDeviceGroupCounts();
  const folderId = params.folder || root.data?.id || '';
  const folder = deviceGroupResource.useDetail(params.folder || null, { select: 'name,parentId,deviceGroupPath,type' });
  const current: DeviceGroup | undefined = params.folder ? folder.data : (root.data ?? undefined);
  const isTop = !current || current.parentId == null;
  const scopeNote = useAccessScopeNote('screens');
  const recursive = params.sub === '1';
  const isGrid = params.view === 'grid';
  const query = deviceResource.useList(
    {
      page: params.page,
      size: params.size,
      sort: sortParam(params.sort),
      text: params.text,
      status: params.status,
      license: params.license,
      tags: params.tags,
      // "All screens" with subfolders is every screen: no folder term.
      folderId: isTop && recursive ? '' : folderId,
      recursive,
    },
    { enabled: Boolean(folderId) },
  );
  const devices = useMemo(() => query.data?.content ?? [], [query.data]);
  const pageIds = useMemo(() => devices.map((d) => d.id), [devices]);
  const {
    selected,
    toggle,
    setAll,
    clear: clearSelection,
  } = useSelection(
    pageIds,
    JSON.stringify([folderId, params.sub, params.text, params.status, params.license, params.tags, params.page, params.size, params.sort]),
  );
  const selectedIds = [...selected];
  const { notice, show, clear: clearNotice } = useNotice();
  const tagOptions = useTags('deviceTags');
  const moveDevices = useMoveDevices();
  const moveFolder = useMoveDeviceGroup();
  const bulkTags = useBulkDeviceTags();
  const command = useDeviceCommand();
  const remove = useDeleteDevice();
  const [adding, setAdding] = useState(false);
  // `?pair=1234` (the web player's QR code): "Add a screen" opens with the code filled in, once the root
  // folder it defaults to is known.
  const searchParams = useSearchParams();
  const pairCode = /^\d{4}$/.test(searchParams.get('pair') ?? '') ? searchParams.get('pair')! : undefined;
  const [pairShown, setPairShown] = useState(false);
  useEffect(() => {
    if (pairCode && canManage && root.data && !pairShown) {
      setPairShown(true);
      setAdding(true);
    }
  }, [pairCode, canManage, root.data, pairShown]);
  const [action, setAction] = useState<ScreenAction | null>(null);
  const [folderAction, setFolderAction] = useState<FolderAction | null>(null);
  const [moving, setMoving] = useState<string[] | null>(null);
  const [tagging, setTagging] = useState<BulkTagsRequest | null>(null);
  const [batch, setBatch] = useState<BatchRequest | null>(null);
  const openPath = (current?.deviceGroupPath ?? '').split('/').filter(Boolean);
  const folderName = isTop ? t('allScreens') : (current?.name ?? '');
  const folderCounts = current ? counts.data?.[current.id] : undefined;
  const filtered = params.status !== 'all' || params.license !== 'all' || params.tags.length > 0;

  const onAction = useCallback((a: ScreenAction) => (a.kind === 'move' ? setMoving([a.device.id]) : setAction(a)), []);
  const columns = useMemo(
    () =>
      screenColumns({
        selecting: canManage ? { selected, pageIds, onToggle: toggle, onToggleAll: setAll } : null,
        onAction: canManage ? onAction : null,
        rootId: root.data?.id,
        t,
        format,
      }),
    [canManage, selected, pageIds, toggle, setAll, onAction, root.data?.id, t, format],
  );

  /** Moves screens into a folder (those already there are left out); throws what refused the move. */
  const moveScreens = useCallback(
    async (targetId: string, ids: string[], targetName?: string) => {
      const known = new Map(devices.map((d) => [d.id, d]));
      const deviceIds = ids.filter((id) => known.get(id)?.deviceGroup?.id !== targetId);
      if (deviceIds.length === 0) {
        show({ tone: 'info', text: t('list.alreadyThere') });

        return;
      }
      await moveDevices.mutateAsync({ deviceIds, targetGroupId: targetId });
      clearSelection();
      show({
        tone: 'info',
        text: targetName
          ? t('list.movedTo', { count: deviceIds.length, target: targetName })
          : t('list.moved', { count: deviceIds.length }),
      });
    },
    [devices, moveDevices, clearSelection, show, t],
  );
  const dropOn = useCallback(
    (target: DeviceGroup, items: DeviceDragItems) => {
      const targetName = target.parentId ? (target.name ?? t('list.theFolder')) : t('allScreens');
      const run = async () => {
        const folders = items.deviceGroupIds.filter((id) => id !== target.id);
        if (folders.length > 0) {
          // A video wall holds screens only; the API would refuse the folder too (409 deviceGroup.error.videoWall).
          if (isVideoWall(target)) throw new Error(t('list.notIntoVideoWall', { name: targetName }));
          for (const id of folders) await moveFolder.mutateAsync({ id, targetId: target.id });
          show({ tone: 'info', text: t('list.movedFolder', { target: targetName }) });
        }
        if (items.deviceIds.length > 0) await moveScreens(target.id, items.deviceIds, targetName);
      };
      show({ tone: 'info', text: t('list.moving') });
      run().catch((e: unknown) => show({ tone: 'error', text: errorMessage(e) }));
    },
    [moveFolder, moveScreens, show, t, errorMessage],
  );

  const tagsFilterControl = (tagOptions.data ?? []).filter((option) => !params.tags.includes(option.tag));

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('list.description')}
        actions={
          canManage ? (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon className="size-4" />
              {t('list.add')}
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <AddScreenDialog
          open={adding}
          onOpenChange={setAdding}
          root={root.data ?? undefined}
          activationCode={pairCode}
          defaultFolder={current && root.data ? { id: current.id, name: folderName } : undefined}
          onAdded={(device) => router.push(`/screens/${device.id}`)}
        />
      ) : null}
      <NewDeviceFolderDialog
        parent={folderAction?.kind === 'new' ? { id: folderAction.folder.id, name: folderName } : null}
        onOpenChange={() => setFolderAction(null)}
        onCreated={(created) => update({ folder: created.id })}
      />
      <RenameDeviceFolderDialog
        folder={folderAction?.kind === 'rename' ? folderAction.folder : null}
        onOpenChange={() => setFolderAction(null)}
      />
      <DeleteDeviceFolderDialog
        folder={folderAction?.kind === 'delete' ? folderAction.folder : null}
        root={root.data ?? undefined}
        screenCount={folderCounts ? folderCounts.onlineCount + folderCounts.offlineCount : undefined}
        onOpenChange={() => setFolderAction(null)}
        onDeleted={(targetId) => update({ folder: targetId === root.data?.id ? '' : targetId })}
      />
      <MoveScreensDialog ids={moving} root={root.data ?? undefined} onOpenChange={(open) => !open && setMoving(null)} move={moveScreens} />
      <BulkTagsDialog
        request={tagging}
        noun={screensNoun}
        suggest="deviceTags"
        onOpenChange={(open) => !open && setTagging(null)}
        onSubmit={async (request, tags) => {
          const { updated } = await bulkTags.mutateAsync({ ids: request.ids, verb: request.verb, tags });
          const words = { tagCount: tags.length, tags: tags.join(', '), count: updated };
          show({ tone: 'info', text: request.verb === 'add' ? t('list.tagsAdded', words) : t('list.tagsRemoved', words) });
        }}
      />
      <BatchCommandDialog
        request={batch}
        onOpenChange={(open) => !open && setBatch(null)}
        onSent={(request, updated) =>
          show({ tone: 'info', text: t('list.batchSent', { command: t(`batch.${request.kind}.label`), count: updated }) })
        }
      />

      {root.isError ? <LoadError title={t('list.rootError')} error={root.error} onRetry={() => void root.refetch()} /> : null}
      {root.isSuccess && !root.data ? <Alert className="mb-4">{t('list.noRoot')}</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
        <Card className="h-fit p-2">
          {root.data ? (
            <DeviceFolderTree
              root={root.data}
              selectedId={folderId}
              openPath={openPath}
              counts={counts.data}
              onSelect={(f) => update({ folder: f.parentId == null ? '' : f.id })}
              onDrop={canManage ? dropOn : undefined}
            />
          ) : root.isPending ? (
            <div className="flex justify-center p-4">
              <Spinner />
            </div>
          ) : null}
          {counts.isError ? <p className="px-2 py-1 text-xs text-red-700">{t('list.countsError')}</p> : null}
          {canManage && root.data ? (
            <p className="mt-2 border-t border-zinc-100 px-2 pt-2 text-xs text-zinc-500">{t('list.dragHint')}</p>
          ) : null}
        </Card>
        <div className="min-w-0">
          <div className="mb-3 flex flex-wrap items-center gap-2">
            <h2 className="mr-auto flex items-center gap-2 text-base font-semibold text-zinc-900" data-testid="screens-folder-title">
              {isVideoWall(current) ? <VideoWallIcon className="size-5 text-violet-500" aria-hidden="true" /> : null}
              {folderName}
              {isVideoWall(current) ? (
                <span className="rounded bg-violet-50 px-1.5 py-0.5 text-xs font-medium text-violet-700 ring-1 ring-violet-200">
                  {t('videoWall')}
                </span>
              ) : null}
              {folderCounts ? (
                <span className="text-sm font-normal text-zinc-500">
                  {t('list.onlineOffline', { online: folderCounts.onlineCount, offline: folderCounts.offlineCount })}
                </span>
              ) : null}
            </h2>
            {canManage && current ? (
              <>
                {!isVideoWall(current) ? (
                  <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'new', folder: current })}>
                    <FolderPlusIcon className="size-4" />
                    {t('list.newFolder')}
                  </Button>
                ) : null}
                {!isTop ? (
                  <>
                    <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'rename', folder: current })}>
                      {t('list.rename')}
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setFolderAction({ kind: 'delete', folder: current })}>
                      {t('list.deleteFolder')}
                    </Button>
                  </>
                ) : null}
              </>
            ) : null}
          </div>
          {params.folder && folder.isError ? (
            <LoadError title={t('list.folderError')} error={folder.error} onRetry={() => void folder.refetch()} />
          ) : null}
          <NowPlayingProvider deviceIds={pageIds}>
            <ResourceList
              identity={{ name: 'screens', noun: screensNoun }}
              list={list}
              query={query}
              columns={columns}
              getRowId={(device: Device) => device.id}
              sortable={SORTABLE}
              search={{ label: t('list.searchLabel'), placeholder: t('list.searchPlaceholder') }}
              filters={
                <>
                  <ScreenStatusFilter value={params.status} onChange={(status) => update({ status })} />
                  <div className="shrink-0">
                    <FilterSelect
                      aria-label={t('licence')}
                      value={params.license}
                      onChange={(e) => update({ license: e.target.value as LicenseFilter })}
                    >
                      {LICENSE_FILTERS.map((s) => (
                        <option key={s} value={s}>
                          {s === 'all' ? t('list.anyLicence') : label('licenseStatus', s)}
                        </option>
                      ))}
                    </FilterSelect>
                  </div>
                  <div className="shrink-0">
                    <FilterSelect
                      aria-label={t('list.tag')}
                      value=""
                      onChange={(e) => e.target.value && update({ tags: [...params.tags, e.target.value] })}
                      disabled={tagsFilterControl.length === 0}
                    >
                      <option value="">{tagsFilterControl.length ? t('list.filterByTag') : t('list.noTags')}</option>
                      {tagsFilterControl.map((option) => (
                        <option key={option.tag} value={option.tag}>
                          {option.tag} ({format.number(option.count)})
                        </option>
                      ))}
                    </FilterSelect>
                  </div>
                  <label className="flex cursor-pointer items-center gap-2 px-1 text-sm whitespace-nowrap text-zinc-700">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-600"
                      checked={recursive}
                      onChange={(e) => update({ sub: e.target.checked ? '1' : '0' })}
                    />
                    {t('list.subfolders')}
                  </label>
                </>
              }
              toolbarEnd={<ViewToggle value={params.view} onChange={(view) => update({ view, page: params.page })} />}
              notices={
                <>
                  {params.tags.length > 0 ? (
                    <div className="flex flex-wrap items-center gap-2 text-sm">
                      {params.tags.map((tag) => (
                        <span
                          key={tag}
                          className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset"
                        >
                          {t('list.tagChip', { tag })}
                          <button
                            type="button"
                            aria-label={t('list.stopTag', { tag })}
                            onClick={() => update({ tags: params.tags.filter((other) => other !== tag) })}
                            className="cursor-pointer rounded-full p-0.5 hover:bg-brand-100"
                          >
                            <XIcon className="size-3" />
                          </button>
                        </span>
                      ))}
                    </div>
                  ) : null}
                  <NoticeAlert notice={notice} onDismiss={clearNotice} />
                  {canManage && selected.size > 0 ? (
                    <SelectionBar
                      noun={screensNoun}
                      count={selected.size}
                      pageCount={pageIds.length}
                      onSelectPage={() => setAll(pageIds, true)}
                      onClear={clearSelection}
                      actions={[
                        { label: t('list.move'), onClick: () => setMoving(selectedIds) },
                        {
                          label: t('list.addTags'),
                          onClick: () => setTagging({ ids: selectedIds, verb: 'add' }),
                          icon: <TagIcon className="size-4" />,
                        },
                        { label: t('list.removeTags'), onClick: () => setTagging({ ids: selectedIds, verb: 'remove' }) },
                        ...BATCH_ORDER.map((kind) => ({
                          label: t(`batch.${kind}.label`),
                          onClick: () => setBatch({ kind, ids: selectedIds }),
                        })),
                      ]}
                    />
                  ) : null}
                </>
              }
              isFiltered={filtered}
              onClearFilters={() => update({ status: 'all', license: 'all', tags: [] })}
              errorTitle={t('list.loadError')}
              empty={{
                icon: <MonitorIcon className="size-5 text-zinc-500" />,
                title: scopeNote ? t('list.emptyScoped') : isTop ? t('list.emptyTop') : t('list.emptyFolder'),
                body: scopeNote ?? (isTop ? t('list.emptyTopBody') : t('list.emptyFolderBody')),
                action: canManage ? (
                  <Button size="sm" onClick={() => setAdding(true)}>
                    <PlusIcon className="size-4" />
                    {t('list.add')}
                  </Button>
                ) : null,
              }}
              filteredHint={t('list.filteredHint')}
            >
              {!isGrid ? undefined : query.isPending ? (
                <GridSkeleton />
              ) : devices.length > 0 ? (
                <ScreenGrid
                  devices={devices}
                  selected={selected}
                  dimmed={query.isPlaceholderData}
                  selectable={canManage}
                  onOpen={(d) => router.push(`/screens/${d.id}`)}
                  onToggle={toggle}
                  menuOf={canManage ? (d) => <ScreenMenu device={d} onAction={onAction} /> : undefined}
                />
              ) : null}
            </ResourceList>
          </NowPlayingProvider>
        </div>
      </div>
      <EditScreenDialog device={action?.kind === 'edit' ? action.device : null} onOpenChange={(open) => !open && setAction(null)} />
      <ConfirmDialog
        open={action?.kind === 'restart'}
        onOpenChange={(open) => !open && setAction(null)}
        title={t('list.restartTitle', { name: action?.device.name ?? '' })}
        description={t('list.restartText')}
        confirmLabel={t('restart')}
        onConfirm={async () => {
          await command.mutateAsync({ name: 'restart', ids: [action!.device.id] });
        }}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        onOpenChange={(open) => !open && setAction(null)}
        title={t('list.deleteTitle', { name: action?.device.name ?? '' })}
        description={t('list.deleteText')}
        confirmLabel={t('delete')}
        destructive
        onConfirm={async () => {
          await remove.mutateAsync(action!.device.id);
        }}
      />
    </>
  );
}

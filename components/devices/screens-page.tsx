'use client';

import dynamic from 'next/dynamic';
import { Link } from '@/components/ui/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AddScreenDialog } from '@/components/devices/add-screen-dialog';
import { useLicenseWords } from '@/components/devices/license-choices';
import { MoveScreensDialog } from '@/components/devices/move-screens-dialog';
import { DeviceFolderTree, isVideoWall, VideoWallIcon } from '@/components/devices/device-folder-tree';
import { NowPlayingProvider } from '@/components/devices/now-playing';
import { BatchCommandDialog, type BatchCommand, type BatchRequest } from '@/components/devices/screen-batch';
import { screenColumns, ScreenMenu, type ScreenAction } from '@/components/devices/screen-columns';
import { ScreenActionDialogs } from '@/components/devices/screen-action-dialogs';
import { ScreenGrid } from '@/components/devices/screen-grid';
import { useScreenMoves } from '@/components/devices/use-screen-moves';
import { ScreenStatusFilter } from '@/components/devices/screen-status-filter';
import { TenantsScreens } from '@/components/devices/tenants-screens';
import {
  FolderButtons,
  FolderHeading,
  FolderLibrary,
  FolderSelectionBar,
  FolderTitle,
  FolderTreeCard,
  gridView,
  SubfoldersToggle,
} from '@/components/folders/folder-library';
import { currentFolderId, folderLibraryFilters, useFolderLibrary } from '@/components/folders/use-folder-library';
import { LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/field';
import { MonitorIcon, PlusIcon, TagIcon, XIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { TagFilterChip, TagFilterSelect } from '@/components/ui/tag-filter';
import { BulkTagsDialog, type BulkTagsRequest } from '@/components/ui/tags-dialog';
import { ViewToggle } from '@/components/ui/view-toggle';
import { deviceGroupResource, useDeviceGroupCounts, useDeviceRoot, type DeviceGroup } from '@/lib/api/device-groups';
import {
  deviceResource,
  LICENSE_FILTERS,
  LICENSE_STATUS_FILTERS,
  LICENSE_TYPE_FILTERS,
  STATUS_FILTERS,
  useBulkDeviceTags,
  type Device,
  type LicenseFilter,
} from '@/lib/api/devices';
import { useCurrentUser } from '@/lib/auth/current-user';
import { choiceFilter, sortParam, useListParams, type SortState, type UrlFilter } from '@/lib/hooks/use-list-params';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'deviceStatus', 'lastActivity'] as const;
/** Tags in the URL as `tags=a,b` (the API's tag format has no comma). */
const tagsFilter: UrlFilter<string[]> = {
  key: 'tags',
  parse: (raw) => (raw ? raw.split(',').filter(Boolean) : []),
  format: (value) => (value.length ? value.join(',') : null),
};
/** `licenseOrder=12`: the screens holding a licence of order 12 (the licences page links here). */
const licenseOrderFilter: UrlFilter<string> = {
  key: 'licenseOrder',
  parse: (raw) => (raw && /^\d{1,15}$/.test(raw) ? raw : ''),
  format: (value) => value || null,
};
const FILTERS = {
  ...folderLibraryFilters(['table', 'grid']),
  // Subfolders are included unless `sub=0`: the tree's counts are of a folder and everything below it.
  sub: choiceFilter('sub', ['1', '0']),
  status: choiceFilter('status', STATUS_FILTERS),
  license: choiceFilter('license', LICENSE_FILTERS),
  licenseOrder: licenseOrderFilter,
  tags: tagsFilter,
};
const BATCH_ORDER: BatchCommand[] = ['restart', 'refresh', 'displayOn', 'displayOff', 'volume', 'screenshot'];
const DeviceFolderDialogs = dynamic(() => import('@/components/devices/device-folder-dialogs'), { ssr: false });

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
  const { licenseLabel } = useLicenseWords();
  const screensNoun = useMemo(() => ({ one: t('noun.one'), other: t('noun.other') }), [t]);
  const me = useCurrentUser();
  const router = useRouter();
  const canManage = hasRole(me.role, 'TECHNICIAN');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE, filters: FILTERS });
  const { params, update } = list;
  const root = useDeviceRoot();
  const counts = useDeviceGroupCounts();
  const folderId = currentFolderId(params.folder, root.data?.id) ?? '';
  const folder = deviceGroupResource.useDetail(params.folder || null, { select: 'name,parentId,deviceGroupPath,type,alertCount' });
  const current: DeviceGroup | undefined = params.folder ? folder.data : (root.data ?? undefined);
  const isTop = !current || current.parentId == null;
  const scopeNote = useAccessScopeNote('screens');
  const recursive = params.sub === '1';
  const query = deviceResource.useList(
    {
      page: params.page,
      size: params.size,
      sort: sortParam(params.sort),
      text: params.text,
      status: params.status,
      license: params.license,
      licenseOrderId: params.licenseOrder ? Number(params.licenseOrder) : undefined,
      tags: params.tags,
      // "All screens" with subfolders is every screen: no folder term.
      folderId: isTop && recursive ? '' : folderId,
      recursive,
    },
    { enabled: Boolean(folderId) },
  );
  const devices = useMemo(() => query.data?.content ?? [], [query.data]);
  const pageIds = useMemo(() => devices.map((d) => d.id), [devices]);
  const library = useFolderLibrary<DeviceGroup>({
    rootId: root.data?.id,
    folderParam: params.folder,
    onFolderParam: (folder) => update({ folder: folder ?? '' }),
    view: params.view,
    onView: (view) => update({ view, page: params.page }),
    pageIds,
    listKey: [
      params.sub,
      params.text,
      params.status,
      params.license,
      params.licenseOrder,
      params.tags,
      params.page,
      params.size,
      params.sort,
    ],
  });
  const { selected, selectedIds, toggle, setAll, clear: clearSelection } = library.selection;
  const { notice, show, clear: clearNotice } = useNotice();
  const bulkTags = useBulkDeviceTags();
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
  const [moving, setMoving] = useState<string[] | null>(null);
  const [tagging, setTagging] = useState<BulkTagsRequest | null>(null);
  const [batch, setBatch] = useState<BatchRequest | null>(null);
  const openPath = (current?.deviceGroupPath ?? '').split('/').filter(Boolean);
  const folderName = isTop ? t('allScreens') : (current?.name ?? '');
  const folderCounts = current ? counts.data?.[current.id] : undefined;
  const filtered = params.status !== 'all' || params.license !== 'all' || params.licenseOrder !== '' || params.tags.length > 0;

  const onAction = useCallback((a: ScreenAction) => (a.kind === 'move' ? setMoving([a.device.id]) : setAction(a)), []);
  const columns = useMemo(
    () =>
      screenColumns({
        selecting: canManage ? { selected, pageIds, onToggle: toggle, onToggleAll: setAll } : null,
        onAction: canManage ? onAction : null,
        rootId: root.data?.id,
        t,
        format,
        licenseLabel,
      }),
    [canManage, selected, pageIds, toggle, setAll, onAction, root.data?.id, t, format, licenseLabel],
  );

  const { moveScreens, dropOn } = useScreenMoves({ devices, show, clearSelection });

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

      <FolderLibrary
        library={library}
        root={root}
        words={{ rootError: t('list.rootError'), noRoot: t('list.noRoot') }}
        treeWidth="wide"
        tree={
          <FolderTreeCard
            root={root}
            footer={
              <>
                {counts.isError ? <p className="px-2 py-1 text-xs text-red-700">{t('list.countsError')}</p> : null}
                {canManage && root.data ? (
                  <p className="mt-2 border-t border-zinc-100 px-2 pt-2 text-xs text-zinc-500">{t('list.dragHint')}</p>
                ) : null}
              </>
            }
          >
            {(top) => (
              <DeviceFolderTree
                root={top}
                selectedId={folderId}
                openPath={openPath}
                counts={counts.data}
                showAlerts
                onSelect={(f) => library.open(f.id)}
                onDrop={canManage ? dropOn : undefined}
              />
            )}
          </FolderTreeCard>
        }
        dialogs={
          <DeviceFolderDialogs
            dialog={library.folderDialog.open}
            onClose={library.folderDialog.close}
            root={root.data ?? undefined}
            counts={counts.data}
            onCreated={(created) => update({ folder: created.id })}
            onDeleted={library.open}
          />
        }
      >
        <FolderHeading
          actions={
            canManage && current ? (
              <FolderButtons library={library} folder={current} canCreate={!isVideoWall(current)} canChange={!isTop} />
            ) : null
          }
        >
          <FolderTitle testId="screens-folder-title">
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
            {current?.alertCount ? (
              <Link
                href="/alerts?state=OPEN"
                className="text-sm font-medium text-red-700 hover:underline"
                data-testid="screens-folder-alerts"
              >
                {t('list.openAlerts', { count: current.alertCount })}
              </Link>
            ) : null}
          </FolderTitle>
        </FolderHeading>
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
                    <option value="all">{t('list.anyLicence')}</option>
                    <optgroup label={t('list.licenceStatus')}>
                      {LICENSE_STATUS_FILTERS.map((s) => (
                        <option key={s} value={s}>
                          {label('licenseStatus', s)}
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label={t('list.licenceType')}>
                      {LICENSE_TYPE_FILTERS.map((s) => (
                        <option key={s} value={s}>
                          {label('licenseType', s.slice('type:'.length))}
                        </option>
                      ))}
                    </optgroup>
                  </FilterSelect>
                </div>
                <TagFilterSelect group="deviceTags" chosen={params.tags} onAdd={(tag) => update({ tags: [...params.tags, tag] })} />
                <SubfoldersToggle checked={recursive} onChange={(checked) => update({ sub: checked ? '1' : '0' })} />
              </>
            }
            toolbarEnd={<ViewToggle value={library.view} onChange={library.setView} />}
            notices={
              <>
                {params.tags.length > 0 || params.licenseOrder ? (
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    {params.licenseOrder ? (
                      <span
                        className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset"
                        data-testid="screens-licence-order-filter"
                      >
                        {t('list.licenceOrder', { id: params.licenseOrder })}
                        <button
                          type="button"
                          onClick={() => update({ licenseOrder: '' })}
                          aria-label={t('list.licenceOrderRemove')}
                          className="cursor-pointer rounded-full p-0.5 hover:bg-brand-100"
                        >
                          <XIcon className="size-3" />
                        </button>
                      </span>
                    ) : null}
                    {params.tags.map((tag) => (
                      <TagFilterChip key={tag} tag={tag} onRemove={() => update({ tags: params.tags.filter((other) => other !== tag) })} />
                    ))}
                  </div>
                ) : null}
                <NoticeAlert notice={notice} onDismiss={clearNotice} />
                {canManage ? (
                  <FolderSelectionBar
                    library={library}
                    noun={screensNoun}
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
            onClearFilters={() => update({ status: 'all', license: 'all', licenseOrder: '', tags: [] })}
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
            {gridView(library.view, { pending: query.isPending, empty: devices.length === 0 }, () => (
              <ScreenGrid
                devices={devices}
                selected={selected}
                dimmed={query.isPlaceholderData}
                selectable={canManage}
                onOpen={(d) => router.push(`/screens/${d.id}`)}
                onToggle={toggle}
                menuOf={canManage ? (d) => <ScreenMenu device={d} onAction={onAction} /> : undefined}
              />
            ))}
          </ResourceList>
        </NowPlayingProvider>
      </FolderLibrary>
      <ScreenActionDialogs action={action} onClose={() => setAction(null)} />
    </>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { FolderTree } from '@/components/files/folder-tree';
import type { DragItems } from '@/components/files/drag';
import { FunnelIcon, XIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteQuickFilter, useQuickFilters, type QuickFilter } from '@/lib/api/quick-filters';
import { useBreadcrumb, useStorageStatistics } from '@/lib/api/file-folders';
import type { QuickFilterView } from '@/lib/api/files';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';

type Props = {
  rootId: string | undefined;
  folderId: string | undefined;
  openPath: readonly string[];
  onSelectFolder: (id: string) => void;
  onDrop: (targetFolderId: string, items: DragItems) => void;
  quickFilterId: string | null;
  onSelectQuickFilter: (id: string | null) => void;
};

function StorageMeter() {
  const stats = useStorageStatistics();
  const t = useTranslations('media.sidebar');
  const format = useFormat();
  if (!stats.data) return null;
  // No quota (absent): unlimited.
  const { totalUsedStorageSize: used, totalAvailableStorageSize: total = 0 } = stats.data;
  const share = total > 0 ? Math.min(1, used / total) : 0;

  return (
    <div className="px-2" data-testid="storage-meter">
      <p className="text-xs text-zinc-500">
        {t.rich(total > 0 ? 'usedOf' : 'used', {
          used: format.bytes(used),
          total: format.bytes(total),
          b: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
      </p>
      {total > 0 ? (
        <div
          className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-zinc-200"
          role="meter"
          aria-label={t('storageUsed')}
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={used}
        >
          <div
            className={cn('h-full rounded-full', share > 0.9 ? 'bg-red-500' : 'bg-brand-500')}
            style={{ width: `${Math.max(share * 100, 1)}%` }}
          />
        </div>
      ) : null}
    </div>
  );
}

export function MediaSidebar({ rootId, folderId, openPath, onSelectFolder, onDrop, quickFilterId, onSelectQuickFilter }: Props) {
  const filters = useQuickFilters('FILE');
  const remove = useDeleteQuickFilter();
  const [deleting, setDeleting] = useState<QuickFilter | null>(null);
  const t = useTranslations('media.sidebar');

  return (
    <div className="space-y-5 lg:sticky lg:top-4">
      <div className="rounded-lg bg-white p-2 ring-1 ring-zinc-200">
        {rootId ? (
          <FolderTree
            rootId={rootId}
            selectedId={quickFilterId ? '' : (folderId ?? rootId)}
            openPath={openPath}
            onSelect={onSelectFolder}
            onDrop={onDrop}
            selectedQuickFilterId={quickFilterId}
            onSelectFiltered={(id) => onSelectQuickFilter(id)}
          />
        ) : (
          <div className="flex justify-center py-6">
            <Spinner label={t('loadingFolders')} className="text-zinc-400" />
          </div>
        )}
      </div>
      <div className="rounded-lg bg-white p-2 ring-1 ring-zinc-200">
        <h2 className="px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{t('quickFilters')}</h2>
        {filters.data?.content.length ? (
          <ul aria-label={t('quickFilters')} className="space-y-0.5 text-sm">
            {filters.data.content.map((qf) => (
              <li
                key={qf.id}
                className={cn(
                  'group flex items-center rounded-md',
                  quickFilterId === qf.id ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100',
                )}
              >
                <button
                  type="button"
                  aria-pressed={quickFilterId === qf.id}
                  onClick={() => onSelectQuickFilter(quickFilterId === qf.id ? null : qf.id)}
                  className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 px-2 py-1.5 text-left"
                >
                  <FunnelIcon className="size-4 shrink-0 text-zinc-400" />
                  <span className="truncate">{qf.name}</span>
                </button>
                {qf.readOnly ? null : (
                  <button
                    type="button"
                    aria-label={t('deleteQuickFilter', { name: qf.name })}
                    onClick={() => setDeleting(qf)}
                    className="mr-1 hidden cursor-pointer rounded p-1 text-zinc-400 group-hover:block hover:bg-zinc-200 hover:text-zinc-700"
                  >
                    <XIcon className="size-3.5" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-2 pb-2 text-sm text-zinc-500">
            {filters.isPending ? t('loading') : filters.isError ? t('quickFiltersError') : t('noQuickFilters')}
          </p>
        )}
      </div>
      <StorageMeter />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('deleteTitle', { name: deleting?.name ?? '' })}
        description={t('deleteText')}
        confirmLabel={t('delete')}
        destructive
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          if (quickFilterId === deleting!.id) onSelectQuickFilter(null);
        }}
      />
    </div>
  );
}

/** The heading of an applied quick filter: its name, the folder it is limited to, and "Show all". */
export function QuickFilterHeading({
  name,
  preset,
  rootId,
  onShowAll,
}: {
  name: string | undefined;
  preset: { view: QuickFilterView } | null;
  rootId: string | undefined;
  onShowAll: () => void;
}) {
  const t = useTranslations('media');

  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium text-zinc-900">
      {t('page.quickFilter', { name: name ?? '…' })}
      {preset?.view.folderId ? (
        <QuickFilterFolder folderId={preset.view.folderId} rootId={rootId} recursive={preset.view.recursive} />
      ) : null}
      <Button variant="ghost" size="sm" onClick={onShowAll}>
        {t('page.showAll')}
      </Button>
    </p>
  );
}

/** "in Folder (and subfolders)" beside an applied quick filter that is limited to a folder. */
function QuickFilterFolder({ folderId, rootId, recursive }: { folderId: string; rootId: string | undefined; recursive: boolean }) {
  const t = useTranslations('media');
  const crumbs = useBreadcrumb(folderId === rootId ? null : folderId);
  const name = folderId === rootId ? t('allMedia') : (crumbs.data?.[crumbs.data.length - 1]?.name ?? '…');

  return <span className="text-sm font-normal text-zinc-500">{t('page.inFolder', { name, recursive: String(recursive) })}</span>;
}

'use client';

import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/data-table';
import { FolderIcon, PhotoIcon, PlusIcon, UploadIcon } from '@/components/ui/icons';

/** The media list when it has nothing to show: nothing matches the filters, or the folder is empty (or hidden by teams). */
export function MediaEmpty({
  filtered,
  onClearFilters,
  scopeNote,
  folderName,
  onUpload,
  onNewFolder,
}: {
  filtered: boolean;
  onClearFilters: () => void;
  /** Why a team member may see less (null: sees everything). */
  scopeNote: string | null;
  /** The folder shown; null: the root. */
  folderName: string | null;
  /** Absent: uploading is not offered. */
  onUpload?: () => void;
  /** Absent: creating folders is not offered. */
  onNewFolder?: () => void;
}) {
  const t = useTranslations('media');

  return filtered ? (
    <EmptyState icon={<PhotoIcon className="size-5 text-zinc-500" />} title={t('empty.noMatch')} testId="media-empty">
      <p className="mt-1 text-sm text-zinc-500">{t('empty.noMatchText')}</p>
      <Button variant="secondary" size="sm" className="mt-4" onClick={onClearFilters}>
        {t('empty.clearFilters')}
      </Button>
    </EmptyState>
  ) : (
    <EmptyState
      icon={<FolderIcon className="size-5 text-zinc-500" />}
      title={scopeNote ? t('empty.noneVisible') : folderName === null ? t('empty.noneYet') : t('empty.folderEmpty', { name: folderName })}
      testId="media-empty"
    >
      <p className="mt-1 text-sm text-zinc-500">{scopeNote ?? t('empty.text')}</p>
      {onNewFolder ? (
        <div className="mt-4 flex gap-2">
          {onUpload ? (
            <Button size="sm" onClick={onUpload}>
              <UploadIcon className="size-4" /> {t('page.uploadFiles')}
            </Button>
          ) : null}
          <Button size="sm" variant="secondary" onClick={onNewFolder}>
            <PlusIcon className="size-4" /> {t('page.newFolder')}
          </Button>
        </div>
      ) : null}
    </EmptyState>
  );
}

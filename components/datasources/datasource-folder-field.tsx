'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { DatasourceFormValues } from '@/components/datasources/datasource-form';
import { FolderTree } from '@/components/files/folder-tree';
import { Spinner } from '@/components/ui/spinner';
import { useBreadcrumb, useRootFolder } from '@/lib/api/file-folders';
import { useErrorMessage } from '@/lib/i18n/errors';

type Form = UseFormReturn<DatasourceFormValues, unknown, DatasourceFormValues>;

/**
 * FILE_FROM_URL: the media folder the file is kept in, chosen in the media library's own folder tree (stored folders
 * only: a filtered folder holds no files). The chosen folder's path is shown above the tree, which opens along it.
 */
export function FileFolderField({ form }: { form: Form }) {
  const t = useTranslations('datasources.form');
  const media = useTranslations('media');
  const errorMessage = useErrorMessage();
  const id = useId();
  const root = useRootFolder();
  const folderId = useWatch({ control: form.control, name: 'fileFolderId' });
  const crumbs = useBreadcrumb(folderId && folderId !== root.data?.id ? folderId : null);
  const path = folderId === root.data?.id ? [] : (crumbs.data ?? []);
  const chosen = !folderId
    ? t('noFileFolder')
    : folderId === root.data?.id
      ? media('allMedia')
      : path.map((f, i) => (i === 0 ? media('allMedia') : f.name)).join(' / ');
  const error = form.formState.errors.fileFolderId?.message;

  return (
    <div className="space-y-1.5" role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`}>
      <p id={`${id}-label`} className="text-sm font-medium text-zinc-800">
        {t('fileFolder')}
      </p>
      <p className="text-sm text-zinc-700" data-testid="datasource-file-folder">
        {chosen}
      </p>
      <div className="max-h-56 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200" aria-invalid={error ? true : undefined}>
        {root.data ? (
          <FolderTree
            rootId={root.data.id}
            selectedId={folderId}
            openPath={path.map((f) => f.id)}
            onSelect={(next) => form.setValue('fileFolderId', next, { shouldDirty: true, shouldValidate: true })}
            onDrop={() => undefined}
          />
        ) : root.isError ? (
          <p className="px-3 py-4 text-sm text-red-700">{t('fileFolderLoadError', { message: errorMessage(root.error) })}</p>
        ) : (
          <p className="flex items-center gap-2 px-3 py-4 text-sm text-zinc-500">
            <Spinner /> {t('fileFolderLoading')}
          </p>
        )}
      </div>
      {error ? <p className="text-xs text-red-700">{error}</p> : null}
      <p id={`${id}-hint`} className="text-xs text-zinc-500">
        {t('fileFolderHint')}
      </p>
    </div>
  );
}

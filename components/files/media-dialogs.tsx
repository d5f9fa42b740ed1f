'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { preflight, type Preflight, type PreflightReason } from '@/components/files/deletion-preflight';
import { mediaNoun } from '@/components/files/file-visuals';
import { FolderTree } from '@/components/files/folder-tree';
import { WarningIcon } from '@/components/ui/icons';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, Field, FormFooter } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { MoveDialog } from '@/components/ui/move-dialog';
import { BulkTagsDialog, type BulkTagsRequest } from '@/components/ui/tags-dialog';
import { useValidityReader, ValidityFields } from '@/components/ui/validity';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteBatch, useMoveToFolder } from '@/lib/api/file-folders';
import { fetchFilesForPreflight, useBulkFileTags, useBulkFileValidity, useDeleteFile, useRenameFile } from '@/lib/api/files';
import { useCreateQuickFilter, type QuickFilterCriteria } from '@/lib/api/quick-filters';
import { useErrorMessage } from '@/lib/i18n/errors';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Noun } from '@/lib/format';

/** A one-field form dialog (folder name, file name, quick filter name). */
function NameDialog({
  open,
  onOpenChange,
  title,
  label,
  initial,
  submitLabel,
  onSubmit,
  description,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  description?: React.ReactNode;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const t = useTranslations('media.dialogs');
  const errorMessage = useErrorMessage();
  useEffect(() => {
    if (open) {
      setName(initial);
      setError(null);
    }
  }, [open, initial]);

  async function submit() {
    if (!name.trim()) return setError(t('enterName'));
    setPending(true);
    setError(null);
    try {
      await onSubmit(name.trim());
      onOpenChange(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent title={title} description={description}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            <Field id={id} label={label}>
              <Input id={id} value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={255} autoComplete="off" />
            </Field>
            {error ? <Alert>{error}</Alert> : null}
          </div>
          <FormFooter pending={pending} onCancel={() => onOpenChange(false)} submitLabel={submitLabel} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function RenameFileDialog({
  file,
  onOpenChange,
}: {
  file: { id: string; name?: string } | null;
  onOpenChange: (open: boolean) => void;
}) {
  const rename = useRenameFile();
  const t = useTranslations('media.dialogs');

  return (
    <NameDialog
      open={file !== null}
      onOpenChange={onOpenChange}
      title={t('renameFile')}
      label={t('fileName')}
      initial={file?.name ?? ''}
      submitLabel={t('rename')}
      onSubmit={(name) => rename.mutateAsync({ id: file!.id, name })}
    />
  );
}

export function SaveQuickFilterDialog({
  criteria,
  onOpenChange,
  onSaved,
}: {
  criteria: QuickFilterCriteria | null;
  onOpenChange: (open: boolean) => void;
  onSaved: (id: string) => void;
}) {
  const create = useCreateQuickFilter();
  const t = useTranslations('media.dialogs');

  return (
    <NameDialog
      open={criteria !== null}
      onOpenChange={onOpenChange}
      title={t('saveQuickFilter')}
      description={t('saveQuickFilterText')}
      label={t('quickFilterName')}
      initial=""
      submitLabel={t('saveQuickFilterButton')}
      onSubmit={async (name) => onSaved((await create.mutateAsync({ name, filteredEntityType: 'FILE', criteria: criteria! })).id)}
    />
  );
}

/** Deletes files after the spec's preflight: blocked files are listed and kept, warnings are shown. */
export function DeleteFilesDialog({
  ids,
  onOpenChange,
  onDeleted,
}: {
  ids: string[] | null;
  onOpenChange: (open: boolean) => void;
  onDeleted: (ids: string[]) => void;
}) {
  const { customerId } = useTenant();
  const [checks, setChecks] = useState<Preflight[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [removeFromPlaylists, setRemoveFromPlaylists] = useState(true);
  const removeOne = useDeleteFile();
  const removeMany = useDeleteBatch();
  const playlistId = useId();
  const key = ids?.join(',') ?? '';
  const t = useTranslations('media');
  const errorMessage = useErrorMessage();

  // Keyed by the ids' text, so a new array of the same ids does not fetch again.
  useEffect(() => {
    if (!key) return;
    let live = true;
    setChecks(null);
    setLoadError(null);
    fetchFilesForPreflight(key.split(','), customerId).then(
      (page) => {
        if (!live) return;
        const results = page.content.map(preflight);
        setChecks(results);
        setRemoveFromPlaylists(results.filter((r) => r.verdict === 'warn').every((r) => r.playlistOnly));
      },
      (e: unknown) => live && setLoadError(errorMessage(e)),
    );

    return () => {
      live = false;
    };
  }, [key, customerId, errorMessage]);

  const blocked = checks?.filter((c) => c.verdict === 'blocked') ?? [];
  const warned = checks?.filter((c) => c.verdict === 'warn') ?? [];
  const deletable = checks?.filter((c) => c.verdict !== 'blocked').map((c) => c.file.id) ?? [];
  const single = ids?.length === 1;
  const name = checks?.[0]?.file.name ?? '';
  const count = ids?.length ?? 0;
  const reasonText = (reason: PreflightReason) => preflightText(t, reason);

  return (
    <ConfirmDialog
      open={ids !== null}
      onOpenChange={onOpenChange}
      title={t('dialogs.deleteFilesTitle', { count, name: name || mediaNoun(t, 'file').one })}
      description={t('dialogs.deleteFilesText')}
      confirmLabel={
        checks && deletable.length !== count ? t('dialogs.deleteSome', { count: deletable.length, total: count }) : t('dialogs.delete')
      }
      destructive
      onConfirm={async () => {
        if (!checks) throw new Error(t('dialogs.stillChecking'));
        if (deletable.length === 0) throw new Error(t('dialogs.noneDeletable'));
        if (deletable.length === 1) await removeOne.mutateAsync({ id: deletable[0]!, removeFromPlaylists });
        else await removeMany.mutateAsync({ fileIds: deletable, folderIds: [], removeFromPlaylists });
        onDeleted(deletable);
      }}
    >
      {loadError ? <Alert>{loadError}</Alert> : null}
      {!checks && !loadError ? (
        <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
          <Spinner /> {t('dialogs.checking', { count })}
        </p>
      ) : null}
      {blocked.length ? (
        <Alert title={t('dialogs.blocked', { count, blocked: blocked.length })}>
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {blocked.map((c) => (
              <li key={c.file.id}>
                {single ? null : <span className="font-medium">{c.file.name}: </span>}
                {c.reasons.map(reasonText).join(' ')}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {warned.length ? (
        <div className="space-y-3 rounded-md bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
          <p className="flex items-center gap-2 font-medium">
            <WarningIcon className="size-4" /> {t('dialogs.stillInUse')}
          </p>
          <ul className="list-disc space-y-0.5 pl-4">
            {warned.map((c) => (
              <li key={c.file.id}>
                {single ? null : <span className="font-medium">{c.file.name}: </span>}
                {c.reasons.map(reasonText).join(' ')}
              </li>
            ))}
          </ul>
          <CheckboxField
            id={playlistId}
            label={t('dialogs.removeFromPlaylists')}
            description={t('dialogs.removeFromPlaylistsText')}
            checked={removeFromPlaylists}
            onChange={(e) => setRemoveFromPlaylists(e.target.checked)}
          />
        </div>
      ) : null}
      {checks && blocked.length === 0 && warned.length === 0 ? (
        <p className="text-sm text-zinc-600">{t('dialogs.notUsed', { count })}</p>
      ) : null}
    </ConfirmDialog>
  );
}

/** A preflight reason in words: at most three names, then how many more. */
function preflightText(t: Translate<'media'>, reason: PreflightReason): string {
  if (reason.key === 'readOnly') return t('preflight.readOnly');
  const names = reason.names.map((n) => n ?? t('preflight.unnamed'));

  return t(`preflight.${reason.key}`, { names: names.slice(0, 3).join(', '), more: Math.max(0, names.length - 3), count: names.length });
}

/** Adds or removes tags on the selected files (`search=id∈…`). */
export function BulkFileTagsDialog({ request, onOpenChange }: { request: BulkTagsRequest | null; onOpenChange: (open: boolean) => void }) {
  const bulk = useBulkFileTags();
  const t = useTranslations('media');

  return (
    <BulkTagsDialog
      request={request}
      noun={mediaNoun(t, 'file')}
      suggest="fileTags"
      onOpenChange={onOpenChange}
      onSubmit={(r, tags) => bulk.mutateAsync({ ids: r.ids, verb: r.verb, tags })}
    />
  );
}

export function BulkValidityDialog({ ids, onOpenChange }: { ids: string[] | null; onOpenChange: (open: boolean) => void }) {
  const [range, setRange] = useState({ from: '', to: '' });
  const bulk = useBulkFileValidity();
  const t = useTranslations('media.dialogs');
  const readValidityFields = useValidityReader();
  useEffect(() => {
    if (ids) setRange({ from: '', to: '' });
  }, [ids]);

  return (
    <ConfirmDialog
      open={ids !== null}
      onOpenChange={onOpenChange}
      title={t('setValidityTitle', { count: ids?.length ?? 0 })}
      description={t('setValidityText')}
      confirmLabel={t('setValidity')}
      onConfirm={async () => {
        const window = readValidityFields(range);
        if ('error' in window) throw new Error(window.error);
        await bulk.mutateAsync({ ids: ids!, ...window });
      }}
    >
      <ValidityFields from={range.from} to={range.to} onChange={setRange} />
    </ConfirmDialog>
  );
}

function moveNoun(t: Translate<'media'>, items: { fileIds: string[]; folderIds: string[] } | null): Noun {
  return mediaNoun(t, !items?.folderIds.length ? 'file' : !items.fileIds.length ? 'folder' : 'item');
}

/** Picks a target folder in a tree and moves files and folders there. */
export function MoveFilesDialog({
  items,
  rootId,
  onOpenChange,
}: {
  items: { fileIds: string[]; folderIds: string[] } | null;
  rootId: string | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const move = useMoveToFolder();
  const count = (items?.fileIds.length ?? 0) + (items?.folderIds.length ?? 0);
  const t = useTranslations('media');
  const format = useFormat();

  return (
    <MoveDialog
      open={items !== null}
      onOpenChange={onOpenChange}
      title={t('dialogs.moveTitle', { what: format.count(count, moveNoun(t, items)) })}
      description={t('dialogs.moveText', { count })}
      tree={(target, choose) =>
        rootId ? (
          <FolderTree rootId={rootId} selectedId={target ?? ''} openPath={[]} onSelect={choose} onDrop={() => undefined} />
        ) : (
          <Spinner />
        )
      }
      onMove={(target) => move.mutateAsync({ targetFolderId: target, fileIds: items!.fileIds, folderIds: items!.folderIds })}
    />
  );
}

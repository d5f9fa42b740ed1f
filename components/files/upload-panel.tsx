'use client';

import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import Uppy from '@uppy/core';
import German from '@uppy/locales/lib/de_DE.js';
import English from '@uppy/locales/lib/en_US.js';
import Dashboard from '@uppy/react/dashboard';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { WarningIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/button';
import { useInvalidateMedia } from '@/lib/api/files';
import { cancelUpload, type UploadedFile } from '@/lib/api/upload-sessions';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';
import type { Locale } from '@/i18n/locales';
import { useTenant } from '@/lib/tenant/tenant-context';
import { resumeStore, type StoredUpload } from '@/lib/upload/resume-store';
import { SessionUploader, type DuplicateNotice, type UploadFailure, type UploadProblem } from '@/lib/upload/session-uploader';

/** Spec 2 "File": the supported extensions. */
const ALLOWED = [
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.svg',
  '.webp',
  '.mp4',
  '.webm',
  '.mov',
  '.mp3',
  '.wav',
  '.ogg',
  '.ttf',
  '.otf',
  '.woff',
  '.woff2',
  '.pdf',
  '.json',
];
const MAX_SIZE = 10_737_418_240;
/** Uppy's own words (its Dashboard) in the console's language: Uppy's maintained locale packs. */
const UPPY_LOCALES: Record<Locale, typeof English> = { en: English, de: German };

function useUnfinishedUploads(customerId: number | undefined) {
  const [items, setItems] = useState<Array<StoredUpload & { fingerprint: string }>>([]);
  useEffect(() => {
    const read = () => setItems(resumeStore.list(customerId));
    read();
    window.addEventListener('signage-uploads-changed', read);
    window.addEventListener('storage', read);

    return () => {
      window.removeEventListener('signage-uploads-changed', read);
      window.removeEventListener('storage', read);
    };
  }, [customerId]);

  return items;
}

/**
 * Uppy's Dashboard over the chunked upload sessions (lib/upload/session-uploader.ts). Files go into
 * the folder open when the upload starts. The page hides the panel instead of unmounting it, so
 * uploads go on while the user browses; the Uppy instance is never destroyed from an effect cleanup
 * (React's development double-mount would destroy it).
 */
export default function UploadPanel({
  folderId,
  folderName,
  onClose,
}: {
  folderId: string | undefined;
  folderName: string;
  onClose: () => void;
}) {
  const { customerId } = useTenant();
  const t = useTranslations('media.upload');
  const locale = useLocale();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const describe = useCallback((problem: UploadProblem) => t(`problem.${problem.key}`, problem), [t]);
  const invalidate = useInvalidateMedia();
  const folderRef = useRef(folderId);
  folderRef.current = folderId;
  const [duplicates, setDuplicates] = useState<DuplicateNotice[]>([]);
  const [uploaded, setUploaded] = useState<UploadedFile[]>([]);
  const unfinished = useUnfinishedUploads(customerId);
  const [uppy] = useState(() =>
    new Uppy({
      id: 'media-upload',
      autoProceed: true,
      allowMultipleUploadBatches: true,
      // The language is switched on the account page: the media page, and this panel with it, mounts anew in it.
      locale: UPPY_LOCALES[locale],
      restrictions: { allowedFileTypes: ALLOWED, maxFileSize: MAX_SIZE },
    }).use(SessionUploader, {
      customerId,
      getParentId: () => folderRef.current,
      onDuplicate: (notice) => setDuplicates((list) => [...list.filter((d) => d.fileName !== notice.fileName), notice]),
      onUploaded: (file) => setUploaded((list) => [...list, file]),
      describe,
    }),
  );
  useEffect(() => {
    uppy.getPlugin('SessionUploader')?.setOptions({ customerId, describe });
  }, [uppy, customerId, describe]);
  // Files in the Dashboard are not "unfinished": they are uploading (or paused) right here.
  const [inDashboard, setInDashboard] = useState<string[]>([]);
  useEffect(() => {
    const sync = () => setInDashboard(uppy.getFiles().map((f) => `${f.name}|${f.size}`));
    uppy.on('file-added', sync);
    uppy.on('file-removed', sync);

    return () => {
      uppy.off('file-added', sync);
      uppy.off('file-removed', sync);
    };
  }, [uppy]);
  const unfinishedElsewhere = unfinished.filter((u) => !inDashboard.includes(`${u.name}|${u.size}`));
  useEffect(() => {
    const refresh = () => void invalidate();
    uppy.on('upload-success', refresh);

    return () => {
      uppy.off('upload-success', refresh);
    };
  }, [uppy, invalidate]);
  // Uppy's Dashboard says only "Upload failed" (the reason hides in a tooltip): list why, per file.
  const [failures, setFailures] = useState<Array<{ id: string; name: string; message: string }>>([]);
  useEffect(() => {
    const failed = (file: { id: string; name?: string } | undefined, error: UploadFailure) => {
      if (!file) return;
      const entry = {
        id: file.id,
        name: file.name ?? t('aFile'),
        message: 'cause' in error ? errorMessage(error.cause) : error.message || t('uploadFailed'),
      };
      setFailures((list) => [...list.filter((f) => f.id !== file.id), entry]);
    };
    const cleared = (file: { id: string } | undefined) => {
      if (file) setFailures((list) => list.filter((f) => f.id !== file.id));
    };
    const clearAll = () => setFailures([]);
    uppy.on('upload-error', failed);
    uppy.on('upload-success', cleared);
    uppy.on('file-removed', cleared);
    uppy.on('upload-retry', cleared);
    uppy.on('retry-all', clearAll);

    return () => {
      uppy.off('upload-error', failed);
      uppy.off('upload-success', cleared);
      uppy.off('file-removed', cleared);
      uppy.off('upload-retry', cleared);
      uppy.off('retry-all', clearAll);
    };
  }, [uppy, t, errorMessage]);

  return (
    <section aria-label={t('label')} className="rounded-lg bg-white p-4 ring-1 ring-zinc-200" data-testid="upload-panel">
      <div className="mb-3 flex items-center justify-between gap-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">{t('title', { folder: folderName })}</h2>
          <p className="text-sm text-zinc-500">{t('text')}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            // Finished files leave the list; running ones go on in the background.
            const done = uppy.getFiles().filter((f) => f.progress.uploadComplete);
            if (done.length) uppy.removeFiles(done.map((f) => f.id));
            setUploaded([]);
            setDuplicates([]);
            onClose();
          }}
        >
          {t('close')}
        </Button>
      </div>
      {unfinishedElsewhere.length ? (
        <div
          className="mb-3 rounded-md bg-brand-50 px-3.5 py-3 text-sm text-brand-900 ring-1 ring-brand-200 ring-inset"
          data-testid="unfinished-uploads"
        >
          <p className="font-medium">{t('unfinished')}</p>
          <p className="text-brand-800/80">{t('unfinishedText')}</p>
          <ul className="mt-2 space-y-1">
            {unfinishedElsewhere.map((u) => (
              <li key={u.fingerprint} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-medium">{u.name}</span> —{' '}
                  {t('progress', {
                    uploaded: format.bytes(u.uploadedBytes),
                    size: format.bytes(u.size),
                    percent: Math.floor((u.uploadedBytes / Math.max(u.size, 1)) * 100),
                  })}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    resumeStore.delete(u.fingerprint);
                    void cancelUpload(u.uploadId, customerId).catch(() => undefined);
                  }}
                >
                  {t('discard')}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {duplicates.length ? (
        <div
          className="mb-3 rounded-md bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
          role="status"
          data-testid="duplicate-notice"
        >
          <div className="flex items-start justify-between gap-2">
            <p className="flex items-center gap-2 font-medium">
              <WarningIcon className="size-4" /> {t('duplicates')}
            </p>
            <Button size="sm" variant="ghost" onClick={() => setDuplicates([])}>
              {t('dismiss')}
            </Button>
          </div>
          <ul className="mt-1 space-y-0.5">
            {duplicates.map((d) => (
              <li key={d.fileName}>
                {t.rich(d.byChecksum ? 'sameContent' : 'sameNameAndSize', {
                  file: d.fileName,
                  matches: d.matches.map((m) => `“${m.name}”`).join(', '),
                  em: (chunks) => <span className="font-medium">{chunks}</span>,
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {failures.length ? (
        <div
          className="mb-3 rounded-md bg-red-50 px-3.5 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset"
          role="alert"
          data-testid="upload-errors"
        >
          <p className="flex items-center gap-2 font-medium">
            <WarningIcon className="size-4" /> {t('failed', { count: failures.length })}
          </p>
          <ul className="mt-1 space-y-0.5">
            {failures.map((f) => (
              <li key={f.id}>
                <span className="font-medium">{f.name}</span>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Dashboard
        uppy={uppy}
        width="100%"
        height={300}
        proudlyDisplayPoweredByUppy={false}
        hideProgressDetails={false}
        note={t('note')}
        doneButtonHandler={() => {
          uppy.clear();
          setUploaded([]);
          setDuplicates([]);
          setFailures([]);
        }}
      />
      {uploaded.length ? (
        <p className="mt-2 text-sm text-emerald-700" role="status" data-testid="upload-summary">
          {t('uploaded', { count: uploaded.length, name: uploaded[0]?.name ?? '' })}
        </p>
      ) : null}
    </section>
  );
}

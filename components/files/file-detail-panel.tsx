'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { DownloadIcon, TrashIcon, XIcon } from '@/components/ui/icons';
import { dimensions, Thumbnail } from '@/components/files/file-visuals';
import { TagInput } from '@/components/ui/tag-input';
import { toLocalInput, useValidityReader, ValidityBadge, ValidityFields } from '@/components/ui/validity';
import { ResourceTeamsEditor } from '@/components/teams/resource-teams';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useBreadcrumb } from '@/lib/api/file-folders';
import { kindOf, useBulkFileValidity, useFile, useUpdateFile, type MediaFile, type UsageEntry } from '@/lib/api/files';
import { ApiError } from '@/lib/api/client';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

type Props = {
  fileId: string;
  onClose: () => void;
  onRename: (file: MediaFile) => void;
  onMove: (file: MediaFile) => void;
  /** Absent: deleting is not offered (UI profile). */
  onDelete?: (file: MediaFile) => void;
  onOpenFile: (id: string) => void;
  /** The file is gone (deleted elsewhere, or an old link): the page closes the panel. */
  onMissing: () => void;
};

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section className="border-t border-zinc-100 px-4 py-4">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function Preview({ file }: { file: MediaFile }) {
  const t = useTranslations('media.detail');
  const kind = kindOf(file.contentType, file.name);
  const src = file.location;
  if (!src) return <Thumbnail file={file} className="aspect-video w-full rounded-md" />;
  // The stored pixel size reserves the preview's box before the file arrives: without it the box grew when the
  // image or the video's metadata loaded and pushed the buttons below it away from under the pointer.
  const box = file.width && file.height ? { width: file.width, height: file.height } : {};
  if (kind === 'image') {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
      <img
        src={src}
        {...box}
        alt={file.name ?? ''}
        className="max-h-80 w-full rounded-md bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:16px_16px] object-contain"
      />
    );
  }
  if (kind === 'video') {
    return (
      <video
        key={src}
        src={src}
        {...box}
        controls
        preload="metadata"
        poster={file.thumbnail ?? undefined}
        className="max-h-80 w-full rounded-md bg-black"
        aria-label={t('video', { name: file.name ?? '' })}
        muted={file.muted}
      >
        <track kind="captions" />
      </video>
    );
  }
  if (kind === 'audio') {
    return (
      <div className="space-y-3">
        <Thumbnail file={file} className="aspect-video w-full rounded-md" />
        <audio src={src} controls preload="metadata" className="w-full" aria-label={t('audio', { name: file.name ?? '' })} />
      </div>
    );
  }
  if (kind === 'pdf')
    return <iframe src={src} title={t('pdf', { name: file.name ?? '' })} className="h-80 w-full rounded-md ring-1 ring-zinc-200" />;

  return <Thumbnail file={file} className="aspect-video w-full rounded-md" />;
}

function usageNames(entries: UsageEntry[] | undefined, unnamed: string): string[] {
  return (entries ?? []).map((e) => String(e.name ?? e.id ?? unnamed));
}

function Usage({ file }: { file: MediaFile }) {
  const t = useTranslations('media.detail');
  const unnamed = t('unnamed');
  const groups = [
    { label: t('usageGroups.content'), items: usageNames(file.usageDetails?.contentUsage, unnamed) },
    { label: t('usageGroups.channels'), items: usageNames(file.campaignUsageDetails, unnamed) },
    { label: t('usageGroups.schedules'), items: usageNames(file.topLevelCampaignUsageDetails, unnamed) },
    { label: t('usageGroups.subChannels'), items: usageNames(file.messageUsageDetails, unnamed) },
  ].filter((g) => g.items.length > 0);
  if (groups.length === 0) return <p className="text-sm text-zinc-500">{t('notUsed')}</p>;

  return (
    <dl className="space-y-2 text-sm">
      {groups.map((g) => (
        <div key={g.label}>
          <dt className="font-medium text-zinc-700">{g.label}</dt>
          <dd className="text-zinc-600">{g.items.join(', ')}</dd>
        </div>
      ))}
    </dl>
  );
}

function TagsEditor({ file, editable }: { file: MediaFile; editable: boolean }) {
  const [tags, setTags] = useState<string[]>(file.tags ?? []);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const update = useUpdateFile();
  const t = useTranslations('media.detail');
  const errorMessage = useErrorMessage();
  const saved = (file.tags ?? []).join('\u0000');
  useEffect(() => setTags(saved ? saved.split('\u0000') : []), [saved]);
  const dirty = tags.join('\u0000') !== saved;
  if (!editable) {
    return tags.length ? (
      <div className="flex flex-wrap gap-1">
        {tags.map((tag) => (
          <Badge key={tag}>{tag}</Badge>
        ))}
      </div>
    ) : (
      <p className="text-sm text-zinc-500">{t('noTags')}</p>
    );
  }

  return (
    <div className="space-y-2">
      <TagInput value={tags} onChange={setTags} suggest="fileTags" label={t('fileTags')} />
      {
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            disabled={!dirty || update.isPending}
            onClick={() =>
              update.mutate(
                { id: file.id, changes: { tags } },
                {
                  onSuccess: () => setMessage({ tone: 'info', text: t('tagsSaved') }),
                  onError: (e) => setMessage({ tone: 'error', text: errorMessage(e) }),
                },
              )
            }
          >
            {update.isPending ? <Spinner /> : null}
            {t('saveTags')}
          </Button>
          {dirty ? (
            <Button size="sm" variant="ghost" onClick={() => setTags(saved ? saved.split('\u0000') : [])}>
              {t('reset')}
            </Button>
          ) : null}
          {message && !dirty ? (
            <span className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'} role="status">
              {message.text}
            </span>
          ) : null}
        </div>
      }
    </div>
  );
}

function ValidityEditor({ file, editable }: { file: MediaFile; editable: boolean }) {
  const initial = { from: toLocalInput(file.validFrom), to: toLocalInput(file.validTo) };
  const [range, setRange] = useState(initial);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const set = useBulkFileValidity();
  const t = useTranslations('media.detail');
  const readValidityFields = useValidityReader();
  const errorMessage = useErrorMessage();
  const format = useFormat();
  useEffect(() => setRange({ from: toLocalInput(file.validFrom), to: toLocalInput(file.validTo) }), [file.validFrom, file.validTo]);
  const dirty = range.from !== initial.from || range.to !== initial.to;

  function save(next: { from: string; to: string }) {
    const window = readValidityFields(next);
    if ('error' in window) return setMessage({ tone: 'error', text: window.error });
    set.mutate(
      { ids: [file.id], ...window },
      {
        onSuccess: () => setMessage({ tone: 'info', text: t('validitySaved') }),
        onError: (e) => setMessage({ tone: 'error', text: errorMessage(e) }),
      },
    );
  }

  if (!editable) {
    return (
      <p className="text-sm text-zinc-600">
        {file.validFrom || file.validTo
          ? t('window', { from: format.dateTime(file.validFrom, t('anyTime')), to: format.dateTime(file.validTo, t('noEnd')) })
          : t('alwaysValid')}
      </p>
    );
  }

  return (
    <div className="space-y-2">
      <ValidityFields from={range.from} to={range.to} onChange={(next) => (setMessage(null), setRange(next))} />
      {
        <div className="flex items-center gap-2">
          <Button size="sm" disabled={!dirty || set.isPending} onClick={() => save(range)}>
            {set.isPending ? <Spinner /> : null}
            {t('saveValidity')}
          </Button>
          {file.validFrom || file.validTo ? (
            <Button size="sm" variant="ghost" onClick={() => save({ from: '', to: '' })} disabled={set.isPending}>
              {t('clear')}
            </Button>
          ) : null}
          {message ? (
            <span className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'} role="status">
              {message.text}
            </span>
          ) : null}
        </div>
      }
    </div>
  );
}

export function FileDetailPanel({ fileId, onClose, onRename, onMove, onDelete, onOpenFile, onMissing }: Props) {
  const t = useTranslations('media');
  const label = useLabel();
  const format = useFormat();
  const query = useFile(fileId);
  const file = query.data;
  const me = useCurrentUser();
  const { customerId } = useTenant();
  const isMissing = query.error instanceof ApiError && query.error.status === 404;
  const missing = useRef(onMissing);
  missing.current = onMissing;
  useEffect(() => {
    if (isMissing) missing.current();
  }, [isMissing]);
  const canEdit = hasRole(me.role, 'EDITOR') && !file?.readOnly;
  // Validity is set through the bulk endpoint, which needs APPROVER.
  const canSetValidity = hasRole(me.role, 'APPROVER') && !file?.readOnly;
  const crumbs = useBreadcrumb(file?.fileFolderId);
  const folderPath = crumbs.data?.map((f, i) => (i === 0 ? t('allMedia') : f.name)).join(' / ');

  return (
    <aside
      aria-label={t('detail.label')}
      className="flex max-h-[calc(100vh-6rem)] w-full flex-col overflow-hidden rounded-lg bg-white ring-1 ring-zinc-200 lg:sticky lg:top-4 lg:w-96 lg:shrink-0"
    >
      <div className="flex items-start justify-between gap-2 px-4 pt-4 pb-3">
        <h2 className="min-w-0 text-base font-semibold break-words text-zinc-900">
          {file?.name ?? (query.isPending ? t('detail.loading') : t('detail.file'))}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label={t('detail.close')}>
          <XIcon className="size-4" />
        </Button>
      </div>
      <div className="overflow-y-auto">
        {query.isError ? (
          <LoadError className="mx-4 mb-4" title={t('detail.loadError')} error={query.error} onRetry={() => void query.refetch()} />
        ) : null}
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label={t('detail.loadingFile')} className="size-6 text-zinc-400" />
          </div>
        ) : null}
        {file ? (
          <>
            <div className="px-4 pb-4">
              <Preview file={file} />
              <div className="mt-3 flex flex-wrap gap-2">
                {!canEdit ? null : (
                  <>
                    <Button size="sm" variant="secondary" onClick={() => onRename(file)}>
                      {t('detail.rename')}
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => onMove(file)}>
                      {t('detail.move')}
                    </Button>
                  </>
                )}
                {file.location ? (
                  <Button size="sm" variant="secondary" asChild>
                    <a href={file.location} download={file.name}>
                      <DownloadIcon className="size-4" /> {t('detail.download')}
                    </a>
                  </Button>
                ) : null}
                {canEdit && onDelete ? (
                  <Button size="sm" variant="secondary" className="text-red-700 hover:bg-red-50" onClick={() => onDelete(file)}>
                    <TrashIcon className="size-4" /> {t('detail.delete')}
                  </Button>
                ) : null}
              </div>
              {file.readOnly ? (
                <Alert tone="info" className="mt-3">
                  {t('detail.readOnly')}
                </Alert>
              ) : null}
            </div>
            <Section title={t('detail.details')}>
              <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm">
                <dt className="text-zinc-500">{t('detail.type')}</dt>
                <dd className="text-zinc-800">
                  {label('fileKind', kindOf(file.contentType, file.name))}{' '}
                  <span className="text-zinc-400">({file.contentType ?? t('detail.unknownType')})</span>
                </dd>
                <dt className="text-zinc-500">{t('detail.size')}</dt>
                <dd className="text-zinc-800">{format.bytes(file.size)}</dd>
                {dimensions(file) ? (
                  <>
                    <dt className="text-zinc-500">{t('detail.pixels')}</dt>
                    <dd className="text-zinc-800">
                      {dimensions(file)}{' '}
                      {file.orientation ? <span className="text-zinc-400">· {label('orientation', file.orientation)}</span> : null}
                    </dd>
                  </>
                ) : null}
                <dt className="text-zinc-500">{t('detail.folder')}</dt>
                <dd className="break-words text-zinc-800">{folderPath ?? '…'}</dd>
                <dt className="text-zinc-500">{t('detail.uploaded')}</dt>
                <dd className="text-zinc-800">
                  {format.dateTime(file.createDate)}
                  {file.creator?.name || file.creatorEmail ? (
                    <span className="block text-zinc-500">
                      {t('detail.uploadedBy', { name: file.creator?.name || file.creatorEmail || '' })}
                    </span>
                  ) : null}
                </dd>
                <dt className="text-zinc-500">{t('detail.checksum')}</dt>
                <dd className="font-mono text-xs text-zinc-600">{file.crcCheckSum ?? '—'}</dd>
              </dl>
              {file.duplicateDetails?.length ? (
                <div
                  className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
                  data-testid="duplicate-details"
                >
                  <p className="font-medium">{t('detail.sameContent')}</p>
                  <ul className="mt-1 space-y-0.5">
                    {file.duplicateDetails.map((d) => (
                      <li key={d.id}>
                        <button type="button" className="cursor-pointer underline hover:text-amber-700" onClick={() => onOpenFile(d.id)}>
                          {d.name}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </Section>
            <Section title={t('detail.tags')}>
              <TagsEditor file={file} editable={canEdit} />
            </Section>
            <Section title={t('detail.validity')} action={<ValidityBadge file={file} />}>
              <ValidityEditor file={file} editable={canSetValidity} />
            </Section>
            <Section title={t('detail.usage')} action={file.readOnly ? <Badge>{t('detail.readOnlyBadge')}</Badge> : null}>
              <Usage file={file} />
            </Section>
            {hasRole(me.role, 'OWNER') ? (
              <Section title={t('detail.teams')}>
                <ResourceTeamsEditor
                  type="file"
                  resourceId={file.id}
                  resourceName={file.name ?? t('detail.theFile')}
                  customerId={customerId}
                  canManage
                />
              </Section>
            ) : null}
          </>
        ) : null}
      </div>
    </aside>
  );
}

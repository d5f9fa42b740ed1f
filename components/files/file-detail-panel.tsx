'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { DownloadIcon, TrashIcon, XIcon } from '@/components/ui/icons';
import { dimensions, kindLabel, Thumbnail } from '@/components/files/file-visuals';
import { TagInput } from '@/components/ui/tag-input';
import { readValidityFields, toLocalInput, ValidityBadge, ValidityFields } from '@/components/ui/validity';
import { ResourceTeamsEditor } from '@/components/teams/resource-teams';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useBreadcrumb } from '@/lib/api/file-folders';
import { formatBytes, kindOf, useBulkFileValidity, useFile, useUpdateFile, type MediaFile, type UsageEntry } from '@/lib/api/files';
import { ApiError } from '@/lib/api/client';
import { errorMessage } from '@/lib/api/protected';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';
import { formatDateTime } from '@/lib/format';

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
  const kind = kindOf(file.contentType, file.name);
  const src = file.location;
  if (!src) return <Thumbnail file={file} className="aspect-video w-full rounded-md" />;
  if (kind === 'image') {
    // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
    return <img src={src} alt={file.name ?? ''} className="max-h-80 w-full rounded-md bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:16px_16px] object-contain" />;
  }
  if (kind === 'video') {
    return (
      <video key={src} src={src} controls preload="metadata" poster={file.thumbnail ?? undefined} className="max-h-80 w-full rounded-md bg-black" aria-label={`Video ${file.name}`} muted={file.muted}>
        <track kind="captions" />
      </video>
    );
  }
  if (kind === 'audio') {
    return (
      <div className="space-y-3">
        <Thumbnail file={file} className="aspect-video w-full rounded-md" />
        <audio src={src} controls preload="metadata" className="w-full" aria-label={`Audio ${file.name}`} />
      </div>
    );
  }
  if (kind === 'pdf') return <iframe src={src} title={`PDF ${file.name}`} className="h-80 w-full rounded-md ring-1 ring-zinc-200" />;

  return <Thumbnail file={file} className="aspect-video w-full rounded-md" />;
}

function usageNames(entries: UsageEntry[] | undefined): string[] {
  return (entries ?? []).map((e) => String(e.name ?? e.id ?? 'unnamed'));
}

function Usage({ file }: { file: MediaFile }) {
  const groups = [
    { label: 'Content', items: usageNames(file.usageDetails?.contentUsage) },
    { label: 'Channels', items: usageNames(file.campaignUsageDetails) },
    { label: 'Schedules', items: usageNames(file.topLevelCampaignUsageDetails) },
    { label: 'Sub-channels', items: usageNames(file.messageUsageDetails) },
  ].filter((g) => g.items.length > 0);
  if (groups.length === 0) return <p className="text-sm text-zinc-500">Not used by any content, channel or schedule.</p>;

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
  const saved = (file.tags ?? []).join('\u0000');
  useEffect(() => setTags(saved ? saved.split('\u0000') : []), [saved]);
  const dirty = tags.join('\u0000') !== saved;
  if (!editable) {
    return tags.length ? (
      <div className="flex flex-wrap gap-1">
        {tags.map((t) => (
          <Badge key={t}>{t}</Badge>
        ))}
      </div>
    ) : (
      <p className="text-sm text-zinc-500">No tags.</p>
    );
  }

  return (
    <div className="space-y-2">
      <TagInput value={tags} onChange={setTags} suggest="fileTags" label="File tags" />
      {(
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            disabled={!dirty || update.isPending}
            onClick={() =>
              update.mutate(
                { id: file.id, changes: { tags } },
                { onSuccess: () => setMessage({ tone: 'info', text: 'Tags saved.' }), onError: (e) => setMessage({ tone: 'error', text: errorMessage(e) }) },
              )
            }
          >
            {update.isPending ? <Spinner /> : null}
            Save tags
          </Button>
          {dirty ? (
            <Button size="sm" variant="ghost" onClick={() => setTags(saved ? saved.split('\u0000') : [])}>
              Reset
            </Button>
          ) : null}
          {message && !dirty ? <span className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'} role="status">{message.text}</span> : null}
        </div>
      )}
    </div>
  );
}

function ValidityEditor({ file, editable }: { file: MediaFile; editable: boolean }) {
  const initial = { from: toLocalInput(file.validFrom), to: toLocalInput(file.validTo) };
  const [range, setRange] = useState(initial);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const set = useBulkFileValidity();
  useEffect(() => setRange({ from: toLocalInput(file.validFrom), to: toLocalInput(file.validTo) }), [file.validFrom, file.validTo]);
  const dirty = range.from !== initial.from || range.to !== initial.to;

  function save(next: { from: string; to: string }) {
    const window = readValidityFields(next);
    if ('error' in window) return setMessage({ tone: 'error', text: window.error });
    set.mutate(
      { ids: [file.id], ...window },
      { onSuccess: () => setMessage({ tone: 'info', text: 'Validity saved.' }), onError: (e) => setMessage({ tone: 'error', text: errorMessage(e) }) },
    );
  }

  if (!editable) {
    return (
      <p className="text-sm text-zinc-600">
        {file.validFrom || file.validTo ? `${formatDateTime(file.validFrom, 'Any time')} – ${formatDateTime(file.validTo, 'no end')}` : 'Always valid.'}
      </p>
    );
  }

  return (
    <div className="space-y-2">
      <ValidityFields from={range.from} to={range.to} onChange={(next) => (setMessage(null), setRange(next))} />
      {(
        <div className="flex items-center gap-2">
          <Button size="sm" disabled={!dirty || set.isPending} onClick={() => save(range)}>
            {set.isPending ? <Spinner /> : null}
            Save validity
          </Button>
          {file.validFrom || file.validTo ? (
            <Button size="sm" variant="ghost" onClick={() => save({ from: '', to: '' })} disabled={set.isPending}>
              Clear
            </Button>
          ) : null}
          {message ? <span className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'} role="status">{message.text}</span> : null}
        </div>
      )}
    </div>
  );
}

export function FileDetailPanel({ fileId, onClose, onRename, onMove, onDelete, onOpenFile, onMissing }: Props) {
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
  const folderPath = crumbs.data?.map((f, i) => (i === 0 ? 'All media' : f.name)).join(' / ');

  return (
    <aside aria-label="File details" className="flex max-h-[calc(100vh-6rem)] w-full flex-col overflow-hidden rounded-lg bg-white ring-1 ring-zinc-200 lg:sticky lg:top-4 lg:w-96 lg:shrink-0">
      <div className="flex items-start justify-between gap-2 px-4 pt-4 pb-3">
        <h2 className="min-w-0 text-base font-semibold break-words text-zinc-900">{file?.name ?? (query.isPending ? 'Loading…' : 'File')}</h2>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close details">
          <XIcon className="size-4" />
        </Button>
      </div>
      <div className="overflow-y-auto">
        {query.isError ? <LoadError className="mx-4 mb-4" title="The file could not be loaded." error={query.error} onRetry={() => void query.refetch()} /> : null}
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading the file" className="size-6 text-zinc-400" />
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
                      Rename
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => onMove(file)}>
                      Move…
                    </Button>
                  </>
                )}
                {file.location ? (
                  <Button size="sm" variant="secondary" asChild>
                    <a href={file.location} download={file.name}>
                      <DownloadIcon className="size-4" /> Download
                    </a>
                  </Button>
                ) : null}
                {canEdit && onDelete ? (
                  <Button size="sm" variant="secondary" className="text-red-700 hover:bg-red-50" onClick={() => onDelete(file)}>
                    <TrashIcon className="size-4" /> Delete
                  </Button>
                ) : null}
              </div>
              {file.readOnly ? <Alert tone="info" className="mt-3">You may only read this file.</Alert> : null}
            </div>
            <Section title="Details">
              <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm">
                <dt className="text-zinc-500">Type</dt>
                <dd className="text-zinc-800">
                  {kindLabel(file)} <span className="text-zinc-400">({file.contentType ?? 'unknown'})</span>
                </dd>
                <dt className="text-zinc-500">Size</dt>
                <dd className="text-zinc-800">{formatBytes(file.size)}</dd>
                {dimensions(file) ? (
                  <>
                    <dt className="text-zinc-500">Pixels</dt>
                    <dd className="text-zinc-800">
                      {dimensions(file)} {file.orientation ? <span className="text-zinc-400">· {file.orientation}</span> : null}
                    </dd>
                  </>
                ) : null}
                <dt className="text-zinc-500">Folder</dt>
                <dd className="break-words text-zinc-800">{folderPath ?? '…'}</dd>
                <dt className="text-zinc-500">Uploaded</dt>
                <dd className="text-zinc-800">
                  {formatDateTime(file.createDate)}
                  {file.creator?.name || file.creatorEmail ? <span className="block text-zinc-500">by {file.creator?.name || file.creatorEmail}</span> : null}
                </dd>
                <dt className="text-zinc-500">Checksum</dt>
                <dd className="font-mono text-xs text-zinc-600">{file.crcCheckSum ?? '—'}</dd>
              </dl>
              {file.duplicateDetails?.length ? (
                <div className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset" data-testid="duplicate-details">
                  <p className="font-medium">Same content as</p>
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
            <Section title="Tags">
              <TagsEditor file={file} editable={canEdit} />
            </Section>
            <Section title="Validity" action={<ValidityBadge file={file} />}>
              <ValidityEditor file={file} editable={canSetValidity} />
            </Section>
            <Section title="Usage" action={file.readOnly ? <Badge>Read-only</Badge> : null}>
              <Usage file={file} />
            </Section>
            {hasRole(me.role, 'OWNER') ? (
              <Section title="Teams">
                <ResourceTeamsEditor type="file" resourceId={file.id} resourceName={file.name ?? 'the file'} customerId={customerId} canManage />
              </Section>
            ) : null}
          </>
        ) : null}
      </div>
    </aside>
  );
}

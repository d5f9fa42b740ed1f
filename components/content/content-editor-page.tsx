'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { PlaylistEditor } from '@/components/content/playlist-editor';
import { SlideEditor } from '@/components/content/slide-editor/slide-editor';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ChevronLeftIcon, LockIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import {
  contentResource,
  contentTypeOf,
  useLockContent,
  useSaveContent,
  type DeviceContent,
  type PlaylistData,
  type SlideData,
} from '@/lib/api/content';
import { useDatasourceChoices, useDatasourceFeed } from '@/lib/api/datasource-data';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useHistory } from '@/lib/hooks/use-history';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { hasRole } from '@/server/context/roles';

type SaveState = { kind: 'saved'; at?: string } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'error'; message: string };

const AUTOSAVE_DELAY_MS = 1200;

/** One playlist or slide: its editor, saved automatically, with undo, redo, lock state and preview. */
export function ContentEditorPage({ id }: { id: string }) {
  const detail = contentResource.useDetail(id);
  const t = useTranslations('content');
  if (detail.isPending) return <Spinner className="m-8 size-6" label={t('loading')} />;
  if (detail.isError || !detail.data)
    return <LoadError title={t('itemLoadError')} error={detail.error} onRetry={() => void detail.refetch()} />;

  return <Editor key={detail.data.id} item={detail.data} />;
}

function Editor({ item }: { item: DeviceContent }) {
  const me = useCurrentUser();
  const save = useSaveContent();
  const lock = useLockContent();
  const t = useTranslations('content');
  const label = useLabel();
  const errorMessage = useErrorMessage();
  const history = useHistory(item.data as PlaylistData | SlideData);
  const [name, setName] = useState(item.name ?? '');
  const [state, setState] = useState<SaveState>({ kind: 'saved', at: item.lastSaved ?? undefined });
  // The newest document sent to the server (or loaded): what it holds once the queued saves are done. An
  // undo back to it needs no write; anything else does, even while an older save is still on its way.
  const sentRef = useRef<PlaylistData | SlideData | null>(history.value);
  const queueRef = useRef<Promise<void>>(Promise.resolve());
  const inFlightRef = useRef(0);
  const savedAtRef = useRef(item.lastSaved ?? undefined);
  const locked = item.locked === true;
  const canEdit = hasRole(me.role, 'EDITOR') && !item.readOnly;
  const readOnly = locked || !canEdit;
  const isPlaylist = item.deviceContentType === 'simpleLoop';
  // The content's own tenant: its widgets may name only that tenant's datasources. The canvas and previews are live.
  const datasourceChoices = useDatasourceChoices(item.customerId, { enabled: !isPlaylist });
  const datasourceFeed = useDatasourceFeed(item.customerId, { live: true });

  // Saves run one after the other, so the server ends with the newest document whatever the network does.
  const persist = useCallback(
    (changes: { data?: PlaylistData | SlideData; name?: string }, autoSave: boolean) => {
      if (changes.data) sentRef.current = changes.data;
      inFlightRef.current += 1;
      setState({ kind: 'saving' });
      const run = async () => {
        try {
          const saved = await save.mutateAsync({ item, changes, autoSave });
          savedAtRef.current = saved.lastSaved ?? undefined;
          inFlightRef.current -= 1;
          if (inFlightRef.current === 0) setState((s) => (s.kind === 'pending' ? s : { kind: 'saved', at: savedAtRef.current }));
        } catch (error) {
          inFlightRef.current -= 1;
          // What the server holds is unknown now: the next change writes the whole document again.
          if (changes.data) sentRef.current = null;
          setState({ kind: 'error', message: errorMessage(error) });
        }
      };
      queueRef.current = queueRef.current.then(run);

      return queueRef.current;
    },
    [item, save, errorMessage],
  );

  // Autosave: a change is written once the editing pauses.
  useEffect(() => {
    if (readOnly) return;
    if (history.value === sentRef.current) {
      // Back to what was sent last (an undo): nothing more to write.
      setState((s) =>
        s.kind !== 'pending' ? s : inFlightRef.current > 0 ? { kind: 'saving' } : { kind: 'saved', at: savedAtRef.current },
      );

      return;
    }
    setState({ kind: 'pending' });
    const timer = setTimeout(() => void persist({ data: history.value }, true), AUTOSAVE_DELAY_MS);

    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- persist is stable per item; the document is what triggers a save
  }, [history.value, readOnly]);

  // Undo and redo from the keyboard, except while typing in a field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z' || readOnly) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      e.preventDefault();
      if (e.shiftKey) history.redo();
      else history.undo();
    };
    window.addEventListener('keydown', onKey);

    return () => window.removeEventListener('keydown', onKey);
  }, [history, readOnly]);

  return (
    <>
      <h1 className="sr-only">
        {label('contentType', contentTypeOf(item))} {item.name}
      </h1>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/content" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
          <ChevronLeftIcon className="size-4" />
          {t('editor.back')}
        </Link>
        <Input
          aria-label={t('editor.name')}
          value={name}
          disabled={readOnly}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name.trim() && name.trim() !== item.name && void persist({ name: name.trim() }, false)}
          className="h-9 max-w-sm flex-1 text-base font-semibold"
        />
        <Badge>{label('contentType', contentTypeOf(item))}</Badge>
        {locked ? (
          <Badge tone="brand">
            <LockIcon className="mr-1 size-3" />
            {t('locked')}
          </Badge>
        ) : null}
        <SaveStatus state={state} />
        <div className="ml-auto flex items-center gap-2">
          {readOnly ? null : (
            <>
              <Button variant="secondary" size="sm" disabled={!history.canUndo} onClick={history.undo}>
                {t('editor.undo')}
              </Button>
              <Button variant="secondary" size="sm" disabled={!history.canRedo} onClick={history.redo}>
                {t('editor.redo')}
              </Button>
            </>
          )}
          {hasRole(me.role, 'APPROVER') ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={lock.isPending || state.kind === 'pending' || state.kind === 'saving'}
              onClick={() => lock.mutate({ item, locked: !locked })}
            >
              <LockIcon className="size-4" />
              {locked ? t('menu.unlock') : t('menu.lock')}
            </Button>
          ) : null}
          <Button variant="secondary" size="sm" asChild>
            <Link href={`/content/${item.id}/preview`}>{t('editor.fullPreview')}</Link>
          </Button>
        </div>
      </div>
      {locked ? (
        <Alert tone="info" title={t('editor.lockedTitle')} className="mb-4">
          {t('editor.lockedBody')}
        </Alert>
      ) : !canEdit ? (
        <Alert tone="info" className="mb-4">
          {t('editor.readOnly')}
        </Alert>
      ) : null}
      {isPlaylist ? (
        <PlaylistEditor
          item={item}
          data={history.value as PlaylistData}
          onChange={history.set}
          readOnly={readOnly}
          datasourceFeed={datasourceFeed}
        />
      ) : (
        <SlideEditor
          data={history.value as SlideData}
          onChange={history.set}
          readOnly={readOnly}
          interactive={item.structureType === 'COMPLEX'}
          customerId={item.customerId}
          selfId={item.id}
          datasourceChoices={datasourceChoices.data}
          datasourceFeed={datasourceFeed}
        />
      )}
    </>
  );
}

function SaveStatus({ state }: { state: SaveState }) {
  const t = useTranslations('content.editor');
  const format = useFormat();
  const text =
    state.kind === 'saved'
      ? state.at
        ? t('savedAt', { at: format.dateTime(state.at) })
        : t('saved')
      : state.kind === 'pending'
        ? t('unsaved')
        : state.kind === 'saving'
          ? t('saving')
          : t('notSaved', { message: state.message });

  return (
    <span
      role="status"
      data-testid="save-status"
      data-state={state.kind}
      className={state.kind === 'error' ? 'text-sm text-red-700' : 'text-sm text-zinc-500'}
    >
      {text}
    </span>
  );
}

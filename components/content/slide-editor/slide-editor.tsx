'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useMemo, useRef, useState } from 'react';
import { fileUrlOf } from '@/components/content/content-preview';
import { SlideCanvas, type CanvasActions } from '@/components/content/slide-editor/slide-canvas';
import type { DatasourceChoice } from '@/components/content/slide-editor/datasource-properties';
import { SourceChooser, type ChosenSource, type SourceKind } from '@/components/content/slide-editor/source-chooser';
import { PageProperties, WidgetProperties } from '@/components/content/slide-editor/widget-properties';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PlusIcon, TrashIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { addPage, pageNameProblem, removePage, renamePage, resizeScreen, withPage, withWidget } from '@/lib/slide-editor/document';
import { reorder, type Rect } from '@/lib/slide-editor/geometry';
import { paintOrder } from '@/lib/player/layout';
import type { DatasourceFeed } from '@/lib/player/render';
import { ADDABLE, copyWidget, needsSource, newWidget, widgetLabel, type WidgetSource, type WidgetType } from '@/lib/slide-editor/widgets';
import type { Page, SlideData, Widget } from '@/server/modules/content/content-data.schemas';

const NO_DATASOURCES: readonly DatasourceChoice[] = [];

/** Why the source chooser is open: to add a widget, to change the selected one's, or for the page background. */
type Choosing = { kind: SourceKind; for: { add: WidgetType } | { widget: string } | 'background' };

/**
 * The slide editor: the page drawn by the renderer screens use, widgets added from the bar, moved and
 * resized on the canvas (mouse or keyboard, snapping to guides), changed in the properties panel; pages
 * for interactive content. Every change goes to the caller's history (undo, redo, autosave).
 */
export function SlideEditor({
  data,
  onChange,
  readOnly,
  interactive,
  customerId,
  selfId,
  datasourceChoices = NO_DATASOURCES,
  datasourceFeed,
}: {
  data: SlideData;
  onChange: (data: SlideData, group?: string) => void;
  readOnly: boolean;
  interactive: boolean;
  customerId: number | undefined;
  selfId: string;
  /** The tenant's datasources a datasource widget may show (its properties panel offers them). */
  datasourceChoices?: readonly DatasourceChoice[];
  /** Their current data for the canvas (absent: datasource widgets show their placeholder). */
  datasourceFeed?: DatasourceFeed;
}) {
  const t = useTranslations('slideEditor');
  const label = useLabel();
  const [pageIndex, setPageIndex] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [choosing, setChoosing] = useState<Choosing | null>(null);
  const index = Math.min(pageIndex, data.pages.length - 1);
  const page = data.pages[index]!;
  const widgets = page.widgets ?? [];
  const selected = widgets.find((w) => w.id === selectedId) ?? null;
  const panelRef = useRef<HTMLDivElement>(null);
  // Handlers read the newest document: two changes within one render (a drag's end, then a key) both land.
  const dataRef = useRef(data);
  dataRef.current = data;
  const change = useCallback((next: SlideData, group?: string) => onChange(next, group), [onChange]);
  const renderOptions = useMemo(
    () => ({ fileUrl: fileUrlOf(customerId), muted: true, datasources: datasourceFeed }),
    [customerId, datasourceFeed],
  );

  const patchWidget = useCallback(
    (id: string, patch: Partial<Widget>, group?: string) =>
      change(
        withWidget(dataRef.current, index, id, (w) => ({ ...w, ...patch }) as Widget),
        group,
      ),
    [change, index],
  );
  const setBox = useCallback(
    (id: string, r: Rect, group?: string) => patchWidget(id, { x: r.x, y: r.y, width: r.width, height: r.height }, group),
    [patchWidget],
  );

  const add = (type: WidgetType, source: WidgetSource = {}) => {
    const widget = newWidget(type, dataRef.current.pages[index]!, source);
    change(withPage(dataRef.current, index, (p) => ({ ...p, widgets: [...(p.widgets ?? []), widget] })));
    setSelectedId(widget.id);
  };
  const startAdd = (type: WidgetType) => {
    const kind = needsSource(type);
    if (kind) setChoosing({ kind, for: { add: type } });
    else add(type);
  };
  const remove = (id: string) => {
    change(withPage(dataRef.current, index, (p) => ({ ...p, widgets: (p.widgets ?? []).filter((w) => w.id !== id) })));
    setSelectedId(null);
  };
  const duplicate = (id: string) => {
    const current = dataRef.current.pages[index]!;
    const original = current.widgets?.find((w) => w.id === id);
    if (!original) return;
    const copy = copyWidget(original, current);
    change(withPage(dataRef.current, index, (p) => ({ ...p, widgets: [...(p.widgets ?? []), copy] })));
    setSelectedId(copy.id);
  };

  const actions: CanvasActions = {
    onSelect: setSelectedId,
    onBoxChange: setBox,
    onDelete: remove,
    onDuplicate: duplicate,
    onReorder: (id, move) => change(withPage(dataRef.current, index, (p) => ({ ...p, widgets: reorder(p.widgets ?? [], id, move) }))),
    onOpen: (id) => {
      setSelectedId(id);
      const w = widgets.find((x) => x.id === id);
      const kind = w && needsSource(w.type);
      if (kind && !readOnly) setChoosing({ kind, for: { widget: id } });
      // Text and everything else: the panel's first field.
      else
        requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>('textarea, input:not([type=checkbox]), select')?.focus());
    },
  };

  const choose = (source: ChosenSource) => {
    const target = choosing?.for;
    setChoosing(null);
    if (!target) return;
    const ref: WidgetSource = source.kind === 'playlist' ? { simpleLoopId: source.simpleLoopId } : { fileId: source.fileId };
    if (target === 'background') {
      if (source.kind !== 'playlist')
        change(withPage(dataRef.current, index, (p) => ({ ...p, pageStyle: { ...p.pageStyle, backgroundFileId: source.fileId } })));
    } else if ('add' in target) add(target.add, ref);
    else patchWidget(target.widget, ref as Partial<Widget>);
  };

  const selectPage = (i: number) => {
    setPageIndex(i);
    setSelectedId(null);
  };
  const showPages = interactive || data.pages.length > 1;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0 space-y-3">
        {readOnly ? null : (
          <div role="toolbar" aria-label={t('addBar.label')} className="flex flex-wrap items-center gap-1.5">
            <span className="mr-1 text-sm text-zinc-500">{t('addBar.add')}</span>
            {ADDABLE.map((type) => (
              <Button key={type} variant="secondary" size="sm" onClick={() => startAdd(type)} aria-label={t('addBar.addType', { type })}>
                <PlusIcon className="size-3.5" />
                {label('widgetType', type)}
              </Button>
            ))}
          </div>
        )}
        {showPages ? (
          <div className="flex flex-wrap items-center gap-1.5">
            <div role="tablist" aria-label={t('pages.label')} className="flex flex-wrap gap-1">
              {data.pages.map((p, i) => (
                <button
                  key={p.name}
                  role="tab"
                  type="button"
                  aria-selected={i === index}
                  onClick={() => selectPage(i)}
                  className={cn(
                    'cursor-pointer rounded-md px-2.5 py-1 text-sm',
                    i === index ? 'bg-zinc-900 text-white' : 'bg-white text-zinc-700 ring-1 ring-zinc-200 hover:bg-zinc-50',
                  )}
                >
                  {p.name}
                </button>
              ))}
            </div>
            {readOnly || !interactive ? null : (
              <>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={data.pages.length >= 200}
                  onClick={() => {
                    change(addPage(dataRef.current, page));
                    selectPage(dataRef.current.pages.length);
                  }}
                >
                  <PlusIcon className="size-3.5" />
                  {t('pages.add')}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={data.pages.length <= 1}
                  aria-label={t('pages.delete', { name: page.name })}
                  onClick={() => {
                    change(removePage(dataRef.current, index));
                    selectPage(Math.max(0, index - 1));
                  }}
                >
                  <TrashIcon className="size-3.5" />
                </Button>
              </>
            )}
          </div>
        ) : null}
        <SlideCanvas page={page} selectedId={selectedId} readOnly={readOnly} renderOptions={renderOptions} actions={actions} />
        {readOnly ? null : <p className="text-xs text-zinc-500">{t('help')}</p>}
      </div>
      {/* Beside the canvas while the page scrolls (below the 4rem header), scrolling on its own when long. */}
      <div className="space-y-4 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto">
        <Card className="h-fit p-4">
          <div ref={panelRef}>
            {selected ? (
              <WidgetProperties
                key={selected.id}
                widget={selected}
                pages={data.pages}
                interactive={interactive}
                readOnly={readOnly}
                onPatch={(patch, group) => patchWidget(selected.id, patch, group)}
                onBox={(r, group) => setBox(selected.id, r, group)}
                onReorder={(move) => actions.onReorder(selected.id, move)}
                onDuplicate={() => duplicate(selected.id)}
                onDelete={() => remove(selected.id)}
                onChooseSource={(kind) => setChoosing({ kind, for: { widget: selected.id } })}
                datasourceChoices={datasourceChoices}
                datasourceFeed={datasourceFeed}
              />
            ) : (
              <PageProperties
                key={index}
                page={page}
                nameProblem={(name) => pageNameProblem(data, index, name)}
                interactive={interactive}
                readOnly={readOnly}
                onPatch={(patch, group) => {
                  if (patch.name !== undefined) {
                    const renamed = renamePage(dataRef.current, index, patch.name);
                    if (renamed) change(renamed, group);

                    return;
                  }
                  change(
                    withPage(dataRef.current, index, (p): Page => ({ ...p, ...patch })),
                    group,
                  );
                }}
                onScreenSize={(size) => change(resizeScreen(dataRef.current, size), 'page:size')}
                onChooseBackground={() => setChoosing({ kind: 'image', for: 'background' })}
              />
            )}
          </div>
        </Card>
        <Layers page={page} selectedId={selectedId} onSelect={setSelectedId} />
      </div>
      <SourceChooser
        kind={choosing?.kind ?? null}
        excludeId={selfId}
        onChoose={choose}
        onOpenChange={(open) => !open && setChoosing(null)}
      />
    </div>
  );
}

/** The page's widgets front to back: selects one that others cover, and shows the stacking. */
function Layers({ page, selectedId, onSelect }: { page: Page; selectedId: string | null; onSelect: (id: string) => void }) {
  const t = useTranslations('slideEditor');
  const label = useLabel();
  const layers = paintOrder(page).reverse();

  return (
    <Card className="p-4">
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{t('layers.title')}</h2>
      {layers.length === 0 ? (
        <p className="text-sm text-zinc-500">{t('layers.empty')}</p>
      ) : (
        <ul aria-label={t('layers.label')} className="space-y-0.5">
          {layers.map((w) => (
            <li key={w.id}>
              <button
                type="button"
                aria-pressed={w.id === selectedId}
                onClick={() => onSelect(w.id)}
                className={cn(
                  'flex w-full cursor-pointer items-center justify-between gap-2 truncate rounded px-2 py-1 text-left text-sm',
                  w.id === selectedId ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-50',
                )}
              >
                <span className="truncate">{widgetLabel(w, label, t)}</span>
                <span className="shrink-0 text-xs text-zinc-400">{label('widgetType', w.type)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

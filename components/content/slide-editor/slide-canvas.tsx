'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { scaleToFit } from '@/lib/player/layout';
import { renderPage, type RenderOptions } from '@/lib/player/render';
import {
  HANDLES,
  keyboardStep,
  resizeBox,
  roundRect,
  snapLines,
  snapMove,
  type Guides,
  type Handle,
  type Rect,
  type ZMove,
} from '@/lib/slide-editor/geometry';
import { widgetLabel } from '@/lib/slide-editor/widgets';
import type { Page, Widget } from '@/server/modules/content/content-data.schemas';

/** Snapping reaches this many screen pixels, whatever the zoom. */
const SNAP_SCREEN_PX = 6;
/** A press that moves less than this (screen pixels) is a click, not a drag. */
const DRAG_START_PX = 3;

type Drag = { id: string; handle: Handle | 'move'; startX: number; startY: number; start: Rect; moved: boolean };
type Draft = { id: string; rect: Rect; guides: Guides };

export type CanvasActions = {
  onSelect: (id: string | null) => void;
  /** A widget's new box; `group` makes a run of keyboard nudges one undo step. */
  onBoxChange: (id: string, rect: Rect, group?: string) => void;
  onDelete: (id: string) => void;
  onDuplicate: (id: string) => void;
  onReorder: (id: string, move: ZMove) => void;
  /** Double-click: edit the widget's main property (its text, its file). */
  onOpen: (id: string) => void;
};

const rectOf = (w: Widget): Rect => ({ x: w.x, y: w.y, width: w.width, height: w.height });

/**
 * The page as screens draw it (the one renderer, lib/player) at its own size, scaled into the editor, under
 * a layer of boxes that select, move and resize the widgets with the mouse and the keyboard, snapping to
 * the page and to each other with guide lines.
 */
export function SlideCanvas({
  page,
  selectedId,
  readOnly,
  renderOptions,
  actions,
}: {
  page: Page;
  selectedId: string | null;
  readOnly: boolean;
  renderOptions: RenderOptions;
  actions: CanvasActions;
}) {
  const t = useTranslations('slideEditor');
  const label = useLabel();
  const frameRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const boxRefs = useRef(new Map<string, HTMLDivElement>());
  const drag = useRef<Drag | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [frame, setFrame] = useState({ width: 0, maxHeight: 600 });
  const size = page.pageData.screenSize;
  const height = frame.width ? Math.min((frame.width * size.height) / size.width, frame.maxHeight) : 0;
  const { scale, offsetX, offsetY } = scaleToFit(size, { width: frame.width, height });

  // The frame's width follows the column; its height the page's aspect, up to most of the window.
  useLayoutEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const measure = () => setFrame({ width: el.clientWidth, maxHeight: Math.max(240, window.innerHeight * 0.7) });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    window.addEventListener('resize', measure);

    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);

  // Draw the page whenever the document changes (not while a drag only moves one element); the datasource widgets
  // redraw themselves when their data changes, and the page is drawn again when a feed comes (or goes).
  const signature = JSON.stringify(page);
  const optionsRef = useRef(renderOptions);
  optionsRef.current = renderOptions;
  const feed = renderOptions.datasources;
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const { element, stop } = renderPage(stage.ownerDocument, JSON.parse(signature) as Page, optionsRef.current);
    element.style.transformOrigin = '0 0';
    stage.replaceChildren(element);

    return () => {
      stop();
      stage.replaceChildren();
    };
  }, [signature, feed]);
  useEffect(() => {
    const element = stageRef.current?.firstElementChild as HTMLElement | null;
    if (element) element.style.transform = `translate(${offsetX}px, ${offsetY}px) scale(${scale})`;
  }, [scale, offsetX, offsetY, signature]);

  // The drawn widget follows a drag live; the document changes once, when the drag ends.
  const moveDrawn = (id: string, r: Rect) => {
    const node = stageRef.current?.querySelector<HTMLElement>(`[data-widget-id="${CSS.escape(id)}"]`);
    if (node) Object.assign(node.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` });
  };

  // A newly selected widget gets the keyboard, so the arrow keys move what was just clicked or added.
  useEffect(() => {
    if (selectedId && !drag.current) boxRefs.current.get(selectedId)?.focus({ preventScroll: true });
  }, [selectedId]);

  const begin = (e: PointerEvent, widget: Widget, handle: Handle | 'move') => {
    if (e.button !== 0) return;
    e.stopPropagation();
    actions.onSelect(widget.id);
    if (readOnly) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { id: widget.id, handle, startX: e.clientX, startY: e.clientY, start: rectOf(widget), moved: false };
  };

  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || scale <= 0) return;
    const sx = e.clientX - d.startX;
    const sy = e.clientY - d.startY;
    if (!d.moved && Math.hypot(sx, sy) < DRAG_START_PX) return;
    d.moved = true;
    const others = (page.widgets ?? []).filter((w) => w.id !== d.id).map(rectOf);
    // Alt held: no snapping, for fine placement.
    const lines = e.altKey ? null : snapLines(size, others);
    const threshold = SNAP_SCREEN_PX / scale;
    const next =
      d.handle === 'move'
        ? lines
          ? snapMove({ ...d.start, x: d.start.x + sx / scale, y: d.start.y + sy / scale }, lines, threshold)
          : { box: { ...d.start, x: d.start.x + sx / scale, y: d.start.y + sy / scale }, guides: { x: [], y: [] } }
        : resizeBox(d.start, d.handle, sx / scale, sy / scale, lines, threshold);
    const rect = roundRect(next.box);
    moveDrawn(d.id, rect);
    setDraft({ id: d.id, rect, guides: next.guides });
  };

  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (d?.moved && draft && draft.id === d.id) actions.onBoxChange(d.id, draft.rect);
    setDraft(null);
  };

  const onKeyDown = (e: KeyboardEvent, widget: Widget) => {
    if (readOnly) return;
    const mod = e.ctrlKey || e.metaKey;
    const step = keyboardStep(rectOf(widget), e.key, { shift: e.shiftKey, alt: e.altKey });
    if (step && !mod) {
      e.preventDefault();
      actions.onBoxChange(widget.id, step, `keys:${widget.id}`);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      actions.onDelete(widget.id);
    } else if (mod && e.key.toLowerCase() === 'd') {
      e.preventDefault();
      actions.onDuplicate(widget.id);
    } else if (e.key === ']' || e.key === '[') {
      e.preventDefault();
      actions.onReorder(widget.id, e.key === ']' ? (mod ? 'front' : 'forward') : mod ? 'back' : 'backward');
    } else if (e.key === 'Enter') {
      e.preventDefault();
      actions.onOpen(widget.id);
    } else if (e.key === 'Escape') {
      actions.onSelect(null);
      (e.currentTarget as HTMLElement).blur();
    }
  };

  const selectedWidget = page.widgets?.find((w) => w.id === selectedId);
  const screen = (r: Rect) => ({
    left: offsetX + r.x * scale,
    top: offsetY + r.y * scale,
    width: r.width * scale,
    height: r.height * scale,
  });

  return (
    <div
      ref={frameRef}
      data-testid="slide-canvas"
      data-scale={scale.toFixed(4)}
      className="relative w-full touch-none overflow-hidden rounded-lg bg-zinc-200 select-none"
      style={{ height }}
      onPointerDown={() => actions.onSelect(null)}
    >
      <div ref={stageRef} aria-hidden className="pointer-events-none absolute inset-0" />
      <div className="absolute inset-0" onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp}>
        {(page.widgets ?? []).map((widget) => {
          const rect = draft?.id === widget.id ? draft.rect : rectOf(widget);
          const selected = widget.id === selectedId;

          return (
            <div
              key={widget.id}
              ref={(node) => {
                if (node) boxRefs.current.set(widget.id, node);
                else boxRefs.current.delete(widget.id);
              }}
              role="button"
              tabIndex={0}
              aria-pressed={selected}
              aria-label={widgetLabel(widget, label, t)}
              aria-keyshortcuts={readOnly ? undefined : 'ArrowUp ArrowDown ArrowLeft ArrowRight Delete'}
              data-testid={`widget-${widget.id}`}
              data-widget-type={widget.type}
              className={cn(
                'absolute outline-none',
                readOnly ? 'cursor-default' : 'cursor-move',
                selected ? '' : 'hover:ring-1 hover:ring-brand-300 focus-visible:ring-2 focus-visible:ring-brand-400',
              )}
              style={{ ...screen(rect), zIndex: widget.zIndex }}
              onPointerDown={(e) => begin(e, widget, 'move')}
              onDoubleClick={() => actions.onOpen(widget.id)}
              onFocus={() => selectedId !== widget.id && !drag.current && actions.onSelect(widget.id)}
              onKeyDown={(e) => onKeyDown(e, widget)}
            />
          );
        })}
        {selectedWidget ? (
          // The selection frame and its handles above every widget, so a covered widget can still be resized.
          <div
            data-testid="selection"
            className="pointer-events-none absolute ring-2 ring-brand-500"
            style={{ ...screen(draft?.id === selectedWidget.id ? draft.rect : rectOf(selectedWidget)), zIndex: 10_001 }}
          >
            {readOnly
              ? null
              : HANDLES.map((handle) => (
                  <span
                    key={handle}
                    aria-hidden
                    data-handle={handle}
                    onPointerDown={(e) => begin(e, selectedWidget, handle)}
                    className="pointer-events-auto absolute size-2.5 rounded-sm border border-brand-600 bg-white"
                    style={{ ...HANDLE_POSITION[handle], cursor: `${handle}-resize` }}
                  />
                ))}
          </div>
        ) : null}
        {draft
          ? [
              ...draft.guides.x.map((x) => (
                <span
                  key={`x${x}`}
                  data-testid="guide"
                  className="pointer-events-none absolute top-0 bottom-0 w-px bg-fuchsia-500"
                  style={{ left: offsetX + x * scale, zIndex: 20_000 }}
                />
              )),
              ...draft.guides.y.map((y) => (
                <span
                  key={`y${y}`}
                  data-testid="guide"
                  className="pointer-events-none absolute right-0 left-0 h-px bg-fuchsia-500"
                  style={{ top: offsetY + y * scale, zIndex: 20_000 }}
                />
              )),
            ]
          : null}
      </div>
    </div>
  );
}

const HANDLE_POSITION: Record<Handle, React.CSSProperties> = {
  nw: { left: -5, top: -5 },
  n: { left: 'calc(50% - 5px)', top: -5 },
  ne: { right: -5, top: -5 },
  e: { right: -5, top: 'calc(50% - 5px)' },
  se: { right: -5, bottom: -5 },
  s: { left: 'calc(50% - 5px)', bottom: -5 },
  sw: { left: -5, bottom: -5 },
  w: { left: -5, top: 'calc(50% - 5px)' },
};

import type { Page, SlideData, Widget } from '@/server/modules/content/content-data.schemas';
import { renderDatasource, type DatasourceFeed, type RendererWords } from './datasource-widget';
import { applyTextStyle, el, marqueeLine, scrollMarquee, type Cleanup } from './dom';
import { formatClock, objectFit, paintOrder, scaleToFit, widgetBox } from './layout';
import { entryAt, type PlayEntry } from './timeline';

/*
 * Draws slides and plays playlists into a DOM element, without a framework: the console's preview and the
 * web player use this one module, so the preview is what a screen shows. Pages are built at their own
 * screen size and scaled as a whole (CSS transform) into the element.
 */

export type RenderOptions = {
  /** The URL a file is loaded from (the console's download path, the player's signed URL). */
  fileUrl: (fileId: string) => string;
  /** The screen's time zone for clocks (the browser's when absent). */
  timeZone?: string;
  /** Videos start muted in previews (browsers refuse autoplay with sound). */
  muted?: boolean;
  /** A tap on a widget with an action (interactive content); absent: widgets do not react to taps. */
  onAction?: (action: NonNullable<Widget['action']>) => void;
  /** The data of datasource widgets (the player's store, the console's feed); absent: they show their placeholder. */
  datasources?: DatasourceFeed;
  /** The clock widgets read (clocks, a room sign's "now"): the player's server-corrected clock; default `Date.now`. */
  now?: () => number;
  /** The words datasource widgets write (the player has no translations): English when absent. */
  words?: Partial<RendererWords>;
};

export type { DatasourceFeed } from './datasource-widget';

/** One widget's element; `cleanups` collects timers to stop when the page goes. */
function renderWidget(doc: Document, widget: Widget, options: RenderOptions, cleanups: Cleanup[]): HTMLElement {
  const box = widgetBox(widget);
  const node = el(doc, 'div', {
    position: 'absolute',
    left: `${box.left}px`,
    top: `${box.top}px`,
    width: `${box.width}px`,
    height: `${box.height}px`,
    overflow: 'hidden',
    boxSizing: 'border-box',
    transform: widget.rotation ? `rotate(${widget.rotation}deg)` : '',
    backgroundColor: widget.style?.backgroundColor ?? '',
    borderRadius: widget.style?.borderRadius ? `${widget.style.borderRadius}px` : '',
    opacity: widget.style?.opacity === undefined ? '' : String(widget.style.opacity),
    padding: widget.style?.padding ? `${widget.style.padding}px` : '',
  });
  node.dataset.widget = widget.type;
  node.dataset.widgetId = widget.id;
  const { action } = widget;
  if (action && options.onAction) {
    const onAction = options.onAction;
    node.style.cursor = 'pointer';
    node.addEventListener('click', () => onAction(action));
  }
  switch (widget.type) {
    case 'text': {
      applyTextStyle(node, widget.textStyle);
      if (widget.marquee) {
        const line = marqueeLine(doc, widget.text);
        node.style.justifyContent = 'center';
        node.appendChild(line);
        cleanups.push(scrollMarquee(line, { width: box.width, speed: widget.marqueeSpeed ?? 120 }).stop);
      } else {
        node.textContent = widget.text;
      }
      break;
    }
    case 'image': {
      const img = el(doc, 'img', { width: '100%', height: '100%', objectFit: objectFit(widget.fit), display: 'block' });
      img.src = options.fileUrl(widget.fileId);
      img.alt = '';
      node.appendChild(img);
      break;
    }
    case 'video': {
      const video = el(doc, 'video', { width: '100%', height: '100%', objectFit: objectFit(widget.fit), display: 'block' });
      video.src = options.fileUrl(widget.fileId);
      video.muted = options.muted ?? widget.muted ?? false;
      video.loop = widget.loop ?? true;
      video.autoplay = true;
      video.playsInline = true;
      node.appendChild(video);
      cleanups.push(() => video.pause());
      break;
    }
    case 'webPage': {
      const frame = el(doc, 'iframe', { width: '100%', height: '100%', border: '0' });
      frame.src = widget.url;
      frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
      frame.referrerPolicy = 'no-referrer';
      node.appendChild(frame);
      if (widget.refreshSeconds) {
        const timer = setInterval(() => (frame.src = widget.url), widget.refreshSeconds * 1000);
        cleanups.push(() => clearInterval(timer));
      }
      break;
    }
    case 'clock': {
      applyTextStyle(node, widget.textStyle);
      const tick = () =>
        (node.textContent = formatClock(new Date((options.now ?? Date.now)()), widget.format ?? 'HH:mm', {
          showDate: widget.showDate,
          timeZone: widget.timeZone ?? options.timeZone,
        }));
      tick();
      const timer = setInterval(tick, 1000);
      cleanups.push(() => clearInterval(timer));
      break;
    }
    case 'datasource': {
      renderDatasource({ doc, node, widget, options, cleanups });
      break;
    }
    default: {
      // Channels, playlists and embedded content inside a slide are placeholders until the player resolves them.
      Object.assign(node.style, {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        color: '#e4e4e7',
        fontSize: '28px',
        fontFamily: 'system-ui, sans-serif',
      });
      if (!widget.style?.backgroundColor) node.style.backgroundColor = 'rgba(63, 63, 70, 0.6)';
      node.textContent =
        widget.type === 'channel' ? `Channel: ${widget.tags.join(', ')}` : widget.type === 'playlist' ? 'Playlist' : 'Content';
    }
  }

  return node;
}

/** A page at its own size, widgets positioned in page pixels; `stop` ends its clocks, tickers and videos. */
export function renderPage(doc: Document, page: Page, options: RenderOptions): { element: HTMLElement; stop: Cleanup } {
  const { width, height } = page.pageData.screenSize;
  const style = page.pageStyle ?? {};
  const element = el(doc, 'div', {
    position: 'relative',
    width: `${width}px`,
    height: `${height}px`,
    overflow: 'hidden',
    backgroundColor: style.backgroundColor ?? '#000000',
  });
  element.dataset.page = page.name;
  if (style.backgroundFileId) {
    Object.assign(element.style, {
      backgroundImage: `url("${options.fileUrl(style.backgroundFileId)}")`,
      backgroundSize:
        style.backgroundFit === 'fill' ? '100% 100%' : style.backgroundFit === 'none' ? 'auto' : (style.backgroundFit ?? 'cover'),
      backgroundPosition: 'center',
      backgroundRepeat: 'no-repeat',
    });
  }
  const cleanups: Cleanup[] = [];
  for (const widget of paintOrder(page)) element.appendChild(renderWidget(doc, widget, options, cleanups));

  return { element, stop: () => cleanups.forEach((c) => c()) };
}

/** Shows `element` (of `size` page pixels) scaled into `container`, letterboxed; answers a function that rescales. */
function mountScaled(container: HTMLElement, element: HTMLElement, size: { width: number; height: number }): () => void {
  container.replaceChildren(element);
  const fit = () => {
    const { scale, offsetX, offsetY } = scaleToFit(size, { width: container.clientWidth, height: container.clientHeight });
    Object.assign(element.style, {
      position: 'absolute',
      left: '0',
      top: '0',
      transformOrigin: '0 0',
      transform: `translate(${offsetX}px, ${offsetY}px) scale(${scale})`,
    });
  };
  fit();

  return fit;
}

/**
 * Shows a slide in `container`, scaled, from its first page; in interactive content a tap on a widget with
 * a "go to page" action shows that page. Answers the function that stops it.
 */
export function showSlide(container: HTMLElement, data: SlideData, options: RenderOptions & { onPage?: (name: string) => void }): Cleanup {
  let current: { stop: Cleanup; fit: () => void } | undefined;
  const show = (page: Page) => {
    current?.stop();
    const { element, stop } = renderPage(container.ownerDocument, page, {
      ...options,
      onAction: (action) => {
        const target = data.pages.find((p) => p.name === action.page);
        if (target) show(target);
      },
    });
    current = { stop, fit: mountScaled(container, element, page.pageData.screenSize) };
    options.onPage?.(page.name);
  };
  const first = data.pages[0];
  if (!first) return () => undefined;
  show(first);
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => current?.fit());
  observer?.observe(container);

  return () => {
    observer?.disconnect();
    current?.stop();
  };
}

/**
 * Plays a timeline in `container` at `screen` size, entry after entry for its duration, repeating. Each
 * entry is built when it starts; a FADE transition cross-fades it in. `onEntry` reports what plays (the
 * editor highlights it; the player counts proof of play).
 */
export class PlaylistPlayer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: { element: HTMLElement; stop: Cleanup } | undefined;
  private index = -1;
  private readonly stage: HTMLElement;
  private readonly fit: () => void;
  private readonly observer: ResizeObserver | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly entries: readonly PlayEntry[],
    private readonly screen: { width: number; height: number },
    private readonly options: RenderOptions & { background?: string; onEntry?: (index: number, entry: PlayEntry) => void },
  ) {
    const doc = container.ownerDocument;
    this.stage = el(doc, 'div', {
      position: 'relative',
      width: `${screen.width}px`,
      height: `${screen.height}px`,
      overflow: 'hidden',
      backgroundColor: options.background ?? '#000000',
    });
    this.fit = mountScaled(container, this.stage, screen);
    this.observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(this.fit);
    this.observer?.observe(container);
  }

  /** Starts at `elapsedMs` into the timeline (0: the first entry). */
  start(elapsedMs = 0): void {
    const at = entryAt(this.entries, elapsedMs);
    if (!at) return;
    this.show(at.index, at.offsetMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.current?.stop();
    this.observer?.disconnect();
  }

  private show(index: number, offsetMs = 0): void {
    const entry = this.entries[index]!;
    const next = this.build(entry);
    const previous = this.current;
    const fade = entry.transition?.type === 'FADE' && previous ? (entry.transition.durationMs ?? 500) : 0;
    Object.assign(next.element.style, {
      position: 'absolute',
      inset: '0',
      opacity: fade ? '0' : '1',
      transition: fade ? `opacity ${fade}ms ease` : '',
    });
    next.element.dataset.entryKey = entry.key;
    this.stage.appendChild(next.element);
    if (fade) requestAnimationFrame(() => (next.element.style.opacity = '1'));
    setTimeout(() => {
      previous?.stop();
      previous?.element.remove();
    }, fade);
    this.current = next;
    this.index = index;
    this.options.onEntry?.(index, entry);
    this.timer = setTimeout(() => this.show((this.index + 1) % this.entries.length), Math.max(100, entry.durationMs - offsetMs));
  }

  private build(entry: PlayEntry): { element: HTMLElement; stop: Cleanup } {
    const doc = this.container.ownerDocument;
    if (entry.kind === 'slide') {
      const page = entry.data.pages[0]!;
      const { element, stop } = renderPage(doc, page, this.options);
      const { scale, offsetX, offsetY } = scaleToFit(page.pageData.screenSize, this.screen);
      const holder = el(doc, 'div', { width: `${this.screen.width}px`, height: `${this.screen.height}px`, overflow: 'hidden' });
      Object.assign(element.style, {
        position: 'absolute',
        left: '0',
        top: '0',
        transformOrigin: '0 0',
        transform: `translate(${offsetX}px, ${offsetY}px) scale(${scale})`,
      });
      holder.appendChild(element);

      return { element: holder, stop };
    }
    const media = el(doc, entry.kind === 'video' ? 'video' : 'img', {
      width: '100%',
      height: '100%',
      objectFit: objectFit(entry.fit),
      display: 'block',
    });
    media.setAttribute('src', entry.file.url);
    media.dataset.fileId = entry.file.id;
    if (media instanceof HTMLVideoElement) {
      media.muted = this.options.muted ?? true;
      media.autoplay = true;
      media.playsInline = true;

      return { element: media, stop: () => media.pause() };
    }

    return { element: media, stop: () => undefined };
  }
}

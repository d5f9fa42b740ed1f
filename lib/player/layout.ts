import type { Fit, Page, Widget } from '@/server/modules/content/content-data.schemas';

/*
 * Where things go on a screen: a page is drawn at its own `screenSize` in page pixels and scaled as a whole
 * into the space it is shown in (letterboxed, centred). Framework-free and pure.
 */

export type Size = { width: number; height: number };
export type Box = { left: number; top: number; width: number; height: number };

/** The scale and offset that fit `screen` into `container` whole, centred. */
export function scaleToFit(screen: Size, container: Size): { scale: number; offsetX: number; offsetY: number } {
  if (screen.width <= 0 || screen.height <= 0 || container.width <= 0 || container.height <= 0) return { scale: 0, offsetX: 0, offsetY: 0 };
  const scale = Math.min(container.width / screen.width, container.height / screen.height);

  return { scale, offsetX: (container.width - screen.width * scale) / 2, offsetY: (container.height - screen.height * scale) / 2 };
}

/** A widget's box in page pixels (what the page element, scaled as a whole, positions absolutely). */
export function widgetBox(widget: Pick<Widget, 'x' | 'y' | 'width' | 'height'>): Box {
  return { left: widget.x, top: widget.y, width: widget.width, height: widget.height };
}

/** Widgets back to front: by `zIndex`, then in document order. */
export function paintOrder(page: Pick<Page, 'widgets'>): Widget[] {
  return (page.widgets ?? [])
    .map((w, i) => ({ w, i }))
    .sort((a, b) => a.w.zIndex - b.w.zIndex || a.i - b.i)
    .map(({ w }) => w);
}

/** The CSS `object-fit` of a fit mode (the names are CSS's own). */
export function objectFit(fit: Fit | undefined): 'contain' | 'cover' | 'fill' | 'none' {
  return fit ?? 'contain';
}

/**
 * The box an image of `media` size takes inside `frame` for a fit mode (what `object-fit` draws): used to
 * check the renderer and by editors that show handles on the picture itself.
 */
export function fittedBox(media: Size, frame: Size, fit: Fit): Box {
  if (fit === 'fill') return { left: 0, top: 0, width: frame.width, height: frame.height };
  const scale =
    fit === 'none'
      ? 1
      : fit === 'contain'
        ? Math.min(frame.width / media.width, frame.height / media.height)
        : Math.max(frame.width / media.width, frame.height / media.height);
  const width = media.width * scale;
  const height = media.height * scale;

  return { left: (frame.width - width) / 2, top: (frame.height - height) / 2, width, height };
}

/** A clock's text at `now`, in `timeZone` (the screen's when absent). */
export function formatClock(
  now: Date,
  format: 'HH:mm' | 'HH:mm:ss' | 'h:mm a',
  options: { showDate?: boolean; timeZone?: string; locale?: string } = {},
): string {
  const time = new Intl.DateTimeFormat(options.locale ?? 'en-GB', {
    hour: format === 'h:mm a' ? 'numeric' : '2-digit',
    minute: '2-digit',
    second: format === 'HH:mm:ss' ? '2-digit' : undefined,
    hour12: format === 'h:mm a',
    timeZone: options.timeZone,
  }).format(now);
  if (!options.showDate) return time;
  const date = new Intl.DateTimeFormat(options.locale ?? 'en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: options.timeZone,
  }).format(now);

  return `${date} ${time}`;
}

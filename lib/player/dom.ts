import type { Widget } from '@/server/modules/content/content-data.schemas';

/*
 * The small DOM helpers the renderer's widgets share (lib/player/render.ts, lib/player/datasource-widget.ts):
 * an element with inline style, a widget's text style, and the ticker that scrolls one line of text.
 */

export type Cleanup = () => void;
export type TextStyle = Extract<Widget, { type: 'text' }>['textStyle'];

export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  style: Partial<CSSStyleDeclaration> = {},
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  Object.assign(node.style, style);

  return node;
}

/** A text widget's look: font, colour, alignment; the box stacks its content and places it by `verticalAlign`. */
export function applyTextStyle(node: HTMLElement, style: TextStyle): void {
  Object.assign(node.style, {
    fontFamily: style?.fontFamily ?? 'Inter, system-ui, sans-serif',
    fontSize: `${style?.fontSize ?? 48}px`,
    fontWeight: style?.fontWeight ?? 'normal',
    fontStyle: style?.italic ? 'italic' : 'normal',
    color: style?.color ?? '#ffffff',
    textAlign: style?.align ?? 'left',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: { top: 'flex-start', middle: 'center', bottom: 'flex-end' }[style?.verticalAlign ?? 'top'],
    whiteSpace: 'pre-wrap',
    lineHeight: '1.2',
  });
}

/** One line of ticker text (to be scrolled by `scrollMarquee`). */
export function marqueeLine(doc: Document, text: string): HTMLSpanElement {
  const line = el(doc, 'span', { whiteSpace: 'nowrap', display: 'inline-block', willChange: 'transform' });
  line.textContent = text;

  return line;
}

export type Marquee = {
  stop: Cleanup;
  /** Where the line is now (pixels from the box's left edge): a new line can go on from there. */
  position: () => number;
};

/**
 * Scrolls `line` from right to left across a box `width` pixels wide at `speed` pixels per second, entering again
 * at the right edge once it has left; from `from` (default: the right edge), one step per animation frame.
 */
export function scrollMarquee(line: HTMLElement, options: { width: number; speed: number; from?: number }): Marquee {
  let x = options.from ?? options.width;
  let last = performance.now();
  let frame = 0;
  const step = (t: number) => {
    x -= ((t - last) / 1000) * options.speed;
    last = t;
    if (x < -line.offsetWidth) x = options.width;
    line.style.transform = `translateX(${x}px)`;
    frame = requestAnimationFrame(step);
  };
  line.style.transform = `translateX(${x}px)`;
  frame = requestAnimationFrame(step);

  return { stop: () => cancelAnimationFrame(frame), position: () => x };
}

import { paintOrder } from '@/lib/player/layout';
import type { Page, Widget } from '@/server/modules/content/content-data.schemas';

/*
 * The slide editor's geometry in page pixels: moving and resizing a widget's box, snapping its edges and
 * centre to the page and to the other widgets (with the guide lines to draw), and z-order. Pure and
 * framework-free, so it is unit-tested without a browser.
 */

export type Rect = { x: number; y: number; width: number; height: number };

/** The handles of a selected widget: corners and edges, by compass direction. */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/** The smallest box a resize leaves (page pixels). */
const MIN_SIZE = 8;

/** Lines a box may snap to: vertical ones at x, horizontal ones at y. */
export type SnapLines = { x: number[]; y: number[] };
/** The guide lines to draw where a box snapped. */
export type Guides = { x: number[]; y: number[] };

/** The page's edges and centre, and every other widget's edges and centre. */
export function snapLines(size: { width: number; height: number }, others: readonly Rect[]): SnapLines {
  const x = [0, size.width / 2, size.width];
  const y = [0, size.height / 2, size.height];
  for (const r of others) {
    x.push(r.x, r.x + r.width / 2, r.x + r.width);
    y.push(r.y, r.y + r.height / 2, r.y + r.height);
  }

  return { x, y };
}

/** The nearest line to any of `points` within `threshold`: how far to shift, and the line. */
function nearest(points: readonly number[], lines: readonly number[], threshold: number): { shift: number; line: number } | null {
  let best: { shift: number; line: number } | null = null;
  for (const p of points) {
    for (const line of lines) {
      const shift = line - p;
      if (Math.abs(shift) <= threshold && (!best || Math.abs(shift) < Math.abs(best.shift))) best = { shift, line };
    }
  }

  return best;
}

/** A moved box, its left, centre or right (top, middle or bottom) pulled onto the nearest line. */
export function snapMove(box: Rect, lines: SnapLines, threshold: number): { box: Rect; guides: Guides } {
  const sx = nearest([box.x, box.x + box.width / 2, box.x + box.width], lines.x, threshold);
  const sy = nearest([box.y, box.y + box.height / 2, box.y + box.height], lines.y, threshold);

  return {
    box: { ...box, x: box.x + (sx?.shift ?? 0), y: box.y + (sy?.shift ?? 0) },
    guides: { x: sx ? [sx.line] : [], y: sy ? [sy.line] : [] },
  };
}

/**
 * The box after dragging `handle` by (dx, dy) page pixels: the opposite edges stay, the moved edges snap
 * to the lines, and no side gets shorter than MIN_SIZE.
 */
export function resizeBox(
  start: Rect,
  handle: Handle,
  dx: number,
  dy: number,
  lines: SnapLines | null,
  threshold: number,
): { box: Rect; guides: Guides } {
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  const guides: Guides = { x: [], y: [] };
  const snap = (value: number, axis: 'x' | 'y') => {
    const hit = lines ? nearest([value], lines[axis], threshold) : null;
    if (!hit) return value;
    guides[axis].push(hit.line);

    return hit.line;
  };
  if (handle.includes('w')) left = Math.min(snap(start.x + dx, 'x'), right - MIN_SIZE);
  if (handle.includes('e')) right = Math.max(snap(right + dx, 'x'), left + MIN_SIZE);
  if (handle.includes('n')) top = Math.min(snap(start.y + dy, 'y'), bottom - MIN_SIZE);
  if (handle.includes('s')) bottom = Math.max(snap(bottom + dy, 'y'), top + MIN_SIZE);

  return { box: { x: left, y: top, width: right - left, height: bottom - top }, guides };
}

/** Whole page pixels, as the document stores them. */
export function roundRect(r: Rect): Rect {
  const x = Math.round(r.x);
  const y = Math.round(r.y);

  return { x, y, width: Math.max(1, Math.round(r.x + r.width) - x), height: Math.max(1, Math.round(r.y + r.height) - y) };
}

/** The arrow keys: move by 1 page pixel (10 with Shift); with Alt, grow or shrink from the right and bottom edges. */
export function keyboardStep(r: Rect, key: string, { shift, alt }: { shift: boolean; alt: boolean }): Rect | null {
  const step = shift ? 10 : 1;
  const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[key];
  if (!d) return null;
  const [dx, dy] = d as [number, number];
  if (alt) return { ...r, width: Math.max(MIN_SIZE, r.width + dx), height: Math.max(MIN_SIZE, r.height + dy) };

  return { ...r, x: r.x + dx, y: r.y + dy };
}

export type ZMove = 'front' | 'forward' | 'backward' | 'back';

/**
 * The widgets after moving one in the paint order; the others keep their order. z-indexes are renumbered
 * 0…n-1 in paint order, so "forward" always passes exactly one widget.
 */
export function reorder(widgets: readonly Widget[], id: string, move: ZMove): Widget[] {
  const order = paintOrder({ widgets: [...widgets] });
  const from = order.findIndex((w) => w.id === id);
  if (from < 0) return [...widgets];
  const to =
    move === 'front'
      ? order.length - 1
      : move === 'back'
        ? 0
        : Math.max(0, Math.min(order.length - 1, from + (move === 'forward' ? 1 : -1)));
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved!);
  const z = new Map(order.map((w, i) => [w.id, i]));

  return widgets.map((w) => ({ ...w, zIndex: z.get(w.id)! }));
}

/** The paint position of a widget: 0 is the back. */
export function paintIndex(page: Pick<Page, 'widgets'>, id: string): number {
  return paintOrder(page).findIndex((w) => w.id === id);
}

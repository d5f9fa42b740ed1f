import { describe, expect, it } from 'vitest';
import { keyboardStep, paintIndex, reorder, resizeBox, roundRect, snapLines, snapMove } from './geometry';
import type { Widget } from '@/server/modules/content/content-data.schemas';

const page = { width: 1920, height: 1080 };
const text = (id: string, zIndex: number): Widget => ({ id, type: 'text', text: id, x: 0, y: 0, width: 100, height: 100, zIndex });

describe('snapping', () => {
  it('pulls a moved box onto the page centre and another widget’s edge, and names the guides', () => {
    const lines = snapLines(page, [{ x: 1000, y: 500, width: 200, height: 100 }]);
    // Centre x at 955 is 5 px from the page centre (960); top at 497 is 3 px from the other's top (500).
    const { box, guides } = snapMove({ x: 905, y: 497, width: 100, height: 50 }, lines, 8);
    expect(box).toEqual({ x: 910, y: 500, width: 100, height: 50 });
    expect(guides).toEqual({ x: [960], y: [500] });
  });

  it('leaves a box far from every line where it is', () => {
    const { box, guides } = snapMove({ x: 300, y: 300, width: 100, height: 50 }, snapLines(page, []), 8);
    expect(box).toEqual({ x: 300, y: 300, width: 100, height: 50 });
    expect(guides).toEqual({ x: [], y: [] });
  });

  it('takes the nearest of several lines within reach', () => {
    const lines = { x: [100, 104], y: [] };
    expect(snapMove({ x: 103, y: 0, width: 10, height: 10 }, lines, 8).box.x).toBe(104);
  });
});

describe('resizing', () => {
  const start = { x: 100, y: 100, width: 200, height: 100 };

  it('moves only the dragged edges; the opposite ones stay', () => {
    expect(resizeBox(start, 'se', 50, 20, null, 0).box).toEqual({ x: 100, y: 100, width: 250, height: 120 });
    expect(resizeBox(start, 'nw', 50, 20, null, 0).box).toEqual({ x: 150, y: 120, width: 150, height: 80 });
    expect(resizeBox(start, 'e', 10, 999, null, 0).box).toEqual({ x: 100, y: 100, width: 210, height: 100 });
    expect(resizeBox(start, 'n', 999, -10, null, 0).box).toEqual({ x: 100, y: 90, width: 200, height: 110 });
  });

  it('never makes a side shorter than the minimum, even dragged past the opposite edge', () => {
    const { box } = resizeBox(start, 'w', 500, 0, null, 0);
    expect(box.width).toBe(8);
    expect(box.x + box.width).toBe(300);
  });

  it('snaps the dragged edge to a line and reports it', () => {
    const { box, guides } = resizeBox(start, 'e', 655, 0, snapLines(page, []), 8);
    expect(box.x + box.width).toBe(960);
    expect(guides.x).toEqual([960]);
  });
});

describe('keyboard and rounding', () => {
  it('moves by one pixel, ten with Shift, and resizes with Alt', () => {
    const r = { x: 10, y: 10, width: 50, height: 50 };
    expect(keyboardStep(r, 'ArrowRight', { shift: false, alt: false })).toEqual({ ...r, x: 11 });
    expect(keyboardStep(r, 'ArrowUp', { shift: true, alt: false })).toEqual({ ...r, y: 0 });
    expect(keyboardStep(r, 'ArrowLeft', { shift: true, alt: true })).toEqual({ ...r, width: 40 });
    expect(keyboardStep({ ...r, height: 9 }, 'ArrowUp', { shift: true, alt: true })).toEqual({ ...r, height: 8 });
    expect(keyboardStep(r, 'Enter', { shift: false, alt: false })).toBeNull();
  });

  it('rounds to whole pixels keeping the far edges where they round to', () => {
    expect(roundRect({ x: 10.4, y: 10.6, width: 20.4, height: 0.2 })).toEqual({ x: 10, y: 11, width: 21, height: 1 });
  });
});

describe('z-order', () => {
  const widgets = [text('a', 0), text('b', 5), text('c', 5), text('d', 9)];

  it('moves one widget one step, or to the front or back, renumbering in paint order', () => {
    const z = (ws: Widget[]) => Object.fromEntries(ws.map((w) => [w.id, w.zIndex]));
    expect(z(reorder(widgets, 'a', 'forward'))).toEqual({ b: 0, a: 1, c: 2, d: 3 });
    expect(z(reorder(widgets, 'c', 'backward'))).toEqual({ a: 0, c: 1, b: 2, d: 3 });
    expect(z(reorder(widgets, 'a', 'front'))).toEqual({ b: 0, c: 1, d: 2, a: 3 });
    expect(z(reorder(widgets, 'd', 'back'))).toEqual({ d: 0, a: 1, b: 2, c: 3 });
    expect(z(reorder(widgets, 'd', 'forward'))).toEqual({ a: 0, b: 1, c: 2, d: 3 });
    // The document order of the widgets does not change.
    expect(reorder(widgets, 'a', 'front').map((w) => w.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('knows where a widget paints', () => {
    expect(paintIndex({ widgets }, 'c')).toBe(2);
    expect(paintIndex({ widgets }, 'x')).toBe(-1);
  });
});

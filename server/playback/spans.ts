/*
 * Sets of instants as sorted, disjoint, non-adjacent half-open spans `[start, end)` in epoch ms. Eligibility
 * is computed as such sets over a window, so segment boundaries are their edges (no per-minute scanning).
 */

export type Span = readonly [start: number, end: number];

export const EVERYTHING: readonly Span[] = [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]];
export const NOTHING: readonly Span[] = [];

/** Sorted, merged; empty spans dropped. */
export function normalise(spans: readonly Span[]): Span[] {
  const sorted = spans.filter(([s, e]) => s < e).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }

  return out;
}

export function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [as, ae] = a[i]!;
    const [bs, be] = b[j]!;
    const s = Math.max(as, bs);
    const e = Math.min(ae, be);
    if (s < e) out.push([s, e]);
    if (ae < be) i++;
    else j++;
  }

  return out;
}

export function intersectAll(sets: readonly (readonly Span[])[]): Span[] {
  return sets.reduce<Span[]>((acc, s) => intersect(acc, s), [...EVERYTHING]);
}

export const union = (...sets: readonly (readonly Span[])[]): Span[] => normalise(sets.flat());

/** `a` without `b`. */
export function subtract(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const [s0, e] of a) {
    let s = s0;
    for (const [bs, be] of b) {
      if (be <= s || bs >= e) continue;
      if (bs > s) out.push([s, bs]);
      s = Math.max(s, be);
      if (s >= e) break;
    }
    if (s < e) out.push([s, e]);
  }

  return out;
}

export function contains(spans: readonly Span[], t: number): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = spans[mid]!;
    if (t < s) hi = mid - 1;
    else if (t >= e) lo = mid + 1;
    else return true;
  }

  return false;
}

/** The finite edges of the spans that lie strictly inside `(from, to)`. */
export function edgesWithin(spans: readonly Span[], from: number, to: number): number[] {
  return spans.flatMap(([s, e]) => [s, e]).filter((t) => t > from && t < to && Number.isFinite(t));
}

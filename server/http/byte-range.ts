/*
 * HTTP `Range` (RFC 9110 §14): the downloads (uploads/downloads.service.ts) and the web player's service
 * worker, which answers a cached video's seeks with 206 slices (player/sw.ts). Dependency-free.
 */

export type ByteRange = { start: number; end: number };

/** One `bytes=` range (a, a-, -n); several ranges are answered whole (RFC 9110 allows ignoring Range). */
export function parseRange(header: string | null | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/i.exec(header.trim()) : null;
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';

    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (to !== '' && Number(to) < start) return undefined; // invalid: ignored (RFC 9110 §14.2)
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return 'unsatisfiable';

  return { start, end };
}

/** The headers of a 206 answer for `range` of a representation of `size` bytes. */
export function partialHeaders(range: ByteRange, size: number, contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-range': `bytes ${range.start}-${range.end}/${size}`,
    'content-length': String(range.end - range.start + 1),
    'accept-ranges': 'bytes',
  };
}

import { parseRange, partialHeaders } from '@/server/http/byte-range';

/**
 * The answer to a request for a cached file (player/sw.ts): the whole file, or for a `Range` header the
 * 206 slice (a video's seeks offline), or a 416 past the end.
 */
export function rangeResponse(blob: Blob, rangeHeader: string | null, contentType: string): Response {
  const range = parseRange(rangeHeader, blob.size);
  if (range === undefined)
    return new Response(blob, {
      status: 200,
      headers: { 'content-type': contentType, 'content-length': String(blob.size), 'accept-ranges': 'bytes' },
    });
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { 'content-range': `bytes */${blob.size}` } });

  return new Response(blob.slice(range.start, range.end + 1), { status: 206, headers: partialHeaders(range, blob.size, contentType) });
}

/*
 * The name of a downloaded file (a FILE_FROM_URL datasource's, spec 5 §2; a webhook's UPLOAD_FILE_TO_FOLDER, spec 5
 * §4): the sender's Content-Disposition filename, else the last segment of the address that answered, else the
 * caller's fallback; never with NUL or other control characters, a directory part, leading dots or more than 255
 * characters. Pure.
 */
import { withoutControlCharacters } from '@/server/http/hostile-input';

const MAX_NAME_LENGTH = 255;
/** An extension kept whole when a long name is shortened (`.woff2` is the longest supported one). */
const KEPT_EXTENSION = /\.[A-Za-z0-9]{1,10}$/;

/** A name a file may have, or '' when nothing of `raw` is left. */
export function sanitizeFileName(raw: string): string {
  // A path keeps its last part only (RFC 6266 §4.3: no directory information), whichever system's separator it uses.
  const base =
    withoutControlCharacters(raw)
      .split(/[/\\]/)
      .filter((part) => part.trim() !== '')
      .at(-1) ?? '';
  const cleaned = base
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned;
  const extension = KEPT_EXTENSION.exec(cleaned)?.[0] ?? '';

  return cleaned.slice(0, MAX_NAME_LENGTH - extension.length).trimEnd() + extension;
}

/** RFC 8187 `charset'language'percent-encoded` (UTF-8 and ISO-8859-1, the two the RFC names); undefined otherwise. */
function extendedValue(value: string): string | undefined {
  const match = /^([A-Za-z0-9!#$%&+^_`{}~-]+)'[^']*'(.*)$/.exec(value);
  if (!match) return undefined;
  const [, charset, encoded] = match;
  try {
    if (charset!.toLowerCase() === 'utf-8') return decodeURIComponent(encoded!);
    if (charset!.toLowerCase() === 'iso-8859-1')
      return encoded!.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  } catch {
    return undefined;
  }

  return undefined;
}

/** The file name a Content-Disposition header gives (`filename*` before `filename`, RFC 6266); undefined without one. */
export function contentDispositionFileName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const parameters = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const [, name, value] of `;${header.slice(header.indexOf(';') + 1)}`.matchAll(pattern)) {
    const key = name!.toLowerCase();
    if (parameters.has(key)) continue;
    parameters.set(key, value!.startsWith('"') ? value!.slice(1, -1).replace(/\\(.)/g, '$1') : value!.trim());
  }
  const extended = parameters.get('filename*');
  const decoded = extended === undefined ? undefined : extendedValue(extended);

  return decoded ?? parameters.get('filename');
}

/** The last non-empty segment of the URL's path, percent-decoded; undefined when the path has none. */
export function urlFileName(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segment = path
    .split('/')
    .filter((part) => part !== '')
    .at(-1);
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The name of the file a download becomes (the first candidate with something left after sanitizing). */
export function remoteFileName(input: { contentDisposition?: string; url: string; fallback: string }): string {
  const candidates = [contentDispositionFileName(input.contentDisposition), urlFileName(input.url), input.fallback];
  for (const candidate of candidates) {
    const name = candidate === undefined ? '' : sanitizeFileName(candidate);
    if (name !== '') return name;
  }

  return 'file';
}

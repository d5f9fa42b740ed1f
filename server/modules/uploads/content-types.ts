import type { BlobStore } from '@/server/storage/blob-store';
import { IMAGE_SIGNATURES, IMAGE_TYPES } from '@/server/storage/image-types';
import { extensionOf, supportedExtensions } from './uploads.rules';

/*
 * What a stored file is, and how it is served (issue 10, stored XSS). The type a client declares is
 * never trusted: a file's `contentType` is the supported type its first bytes show, else its
 * extension's. Downloads answer that type with `nosniff` and a sandboxing CSP, and types a browser
 * could run as a document (SVG) only as attachments.
 */

/** How many leading bytes the signatures below need (MP4 brands, RIFF forms). */
const SNIFF_BYTES = 64;

/** Every type a file may be stored and served as: the extensions' types, and what sniffing can find. */
const ALLOWED_TYPES = new Set(Object.values(supportedExtensions));

type Signature = {
  type: string;
  test: (head: Buffer) => boolean;
  /** Weak signatures (few bytes, common in other data) count only when the extension agrees. */
  weak?: boolean;
};

const ascii = (head: Buffer, offset: number, text: string) =>
  head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;
const QUICKTIME_ATOMS = ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

/** Binary signatures of the supported types. Text types (SVG, JSON) are never sniffed: nothing is promoted into them. */
const SIGNATURES: Signature[] = [
  // Images: the one rule of every image the service stores (server/storage/image-types.ts).
  ...IMAGE_TYPES.map((type) => ({ type, test: IMAGE_SIGNATURES[type] })),
  { type: 'audio/wav', test: (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE') },
  { type: 'video/quicktime', test: (h) => ascii(h, 4, 'ftyp') && ascii(h, 8, 'qt  ') },
  { type: 'video/mp4', test: (h) => ascii(h, 4, 'ftyp') },
  { type: 'video/quicktime', test: (h) => QUICKTIME_ATOMS.some((atom) => ascii(h, 4, atom)), weak: true },
  { type: 'video/webm', test: (h) => h.length >= 4 && h.readUInt32BE(0) === 0x1a45dfa3 },
  { type: 'audio/ogg', test: (h) => ascii(h, 0, 'OggS') },
  { type: 'audio/mpeg', test: (h) => ascii(h, 0, 'ID3') },
  { type: 'audio/mpeg', test: (h) => h.length >= 2 && h[0] === 0xff && (h[1]! & 0xe0) === 0xe0, weak: true },
  { type: 'application/pdf', test: (h) => ascii(h, 0, '%PDF-') },
  { type: 'font/woff', test: (h) => ascii(h, 0, 'wOFF') },
  { type: 'font/woff2', test: (h) => ascii(h, 0, 'wOF2') },
  { type: 'font/otf', test: (h) => ascii(h, 0, 'OTTO') },
  { type: 'font/ttf', test: (h) => h.length >= 4 && (h.readUInt32BE(0) === 0x00010000 || ascii(h, 0, 'true')), weak: true },
];

/** The extension's type (spec 2 "File"); application/octet-stream for anything else. */
export function extensionType(name: string): string {
  return supportedExtensions[extensionOf(name)] ?? 'application/octet-stream';
}

/**
 * The real type of a file named `name` whose content starts with `head`: the first signature that
 * matches (a weak one only when the extension names the same type), else the extension's type.
 */
export function realContentType(name: string, head: Buffer): string {
  const byExtension = extensionType(name);
  for (const signature of SIGNATURES) {
    if (!signature.test(head)) continue;
    if (signature.weak && !sameFamily(signature.type, byExtension)) continue;

    return signature.type;
  }

  return byExtension;
}

/** The longest file name (spec 2 "File", the upload's rule). */
const MAX_NAME_LENGTH = 255;

/**
 * The name and type of a file that did not come as an upload (a FILE_FROM_URL download), by the upload's rules: a
 * name with a supported extension keeps it, its type what `head` shows, else the extension's. A name without one
 * gets the extension of the type `head` shows, else of `declaredType` (the sender's Content-Type, as if the sender
 * had named the file) when that is a supported type. Undefined: no supported type (an upload would be 400
 * `file.error.unsupportedType`).
 */
export function namedFileType(input: {
  name: string;
  head: Buffer;
  declaredType?: string;
}): { name: string; contentType: string } | undefined {
  let name = input.name.slice(0, MAX_NAME_LENGTH);
  if (!(extensionOf(name) in supportedExtensions)) {
    const sniffed = realContentType(name, input.head);
    const declared = input.declaredType?.split(';')[0]?.trim().toLowerCase() ?? '';
    const type = sniffed === extensionType(name) ? declared : sniffed;
    const extension = Object.keys(supportedExtensions).find((ext) => supportedExtensions[ext] === type);
    if (!extension) return undefined;
    name = `${name.slice(0, MAX_NAME_LENGTH - extension.length - 1)}.${extension}`;
  }

  return { name, contentType: realContentType(name, input.head) };
}

/** Weak signatures confirm the extension; MOV and MP4 (ISO media) and TTF/OTF share a layout. */
function sameFamily(sniffed: string, byExtension: string): boolean {
  const family = (type: string) => (type === 'video/quicktime' ? 'video/mp4' : type === 'font/otf' ? 'font/ttf' : type);

  return family(sniffed) === family(byExtension);
}

/** Reads the first bytes of a stored blob and answers its real type. */
export async function storedContentType(storage: BlobStore, key: string, input: { name: string; size: number }): Promise<string> {
  if (input.size === 0) return extensionType(input.name);
  const stream = await storage.read(key, { start: 0, end: Math.min(input.size, SNIFF_BYTES) - 1 });
  if (!stream) return extensionType(input.name);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);

  return realContentType(input.name, Buffer.concat(chunks));
}

/**
 * The type a download answers: the stored type when it is one of the supported ones, else the
 * extension's (rows written before types were checked may hold whatever a client declared).
 */
export function servedContentType(name: string, storedType: string | null | undefined): string {
  const type = storedType?.trim().toLowerCase();

  return type && ALLOWED_TYPES.has(type) ? type : extensionType(name);
}

/** Types a browser shows without running anything of the file's own: these may be answered inline. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|bmp|avif)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/pdf|application\/json)$/;

/**
 * The safety headers of every download (file and thumbnail, bearer, session cookie or signed URL):
 * `nosniff`, a sandboxing CSP (no script, forms, plugins or popups; an opaque origin except for audio
 * and video, whose media document loads its own URL again and needs it), and `attachment` for
 * anything a browser could run as a document (SVG).
 */
export function downloadSafetyHeaders(type: string, fileName: string): Record<string, string> {
  const isMedia = /^(video|audio)\//.test(type);
  const disposition = INLINE_TYPES.test(type) ? 'inline' : 'attachment';

  return {
    'Content-Type': type,
    'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `${isMedia ? 'sandbox allow-same-origin' : 'sandbox'}; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'`,
  };
}

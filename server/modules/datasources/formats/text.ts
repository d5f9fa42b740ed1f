/**
 * Bytes to text. A byte-order mark wins, then the charset of the Content-Type, then (for XML) the encoding of the
 * XML declaration, then UTF-8. Undecodable bytes become U+FFFD rather than failing the refresh.
 */

export type DecodeOptions = { contentType?: string; sniffXmlDeclaration?: boolean };

export function decodeBody(body: Buffer, options: DecodeOptions = {}): string {
  const fromBom = bomEncoding(body);
  if (fromBom) return decodeWith(fromBom.label, body.subarray(fromBom.length));

  const label = charsetOfContentType(options.contentType) ?? (options.sniffXmlDeclaration ? xmlDeclarationEncoding(body) : undefined);
  const text = decodeWith(label ?? 'utf-8', body);

  // A BOM of another encoding than the one declared survives decoding as U+FEFF.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function charsetOfContentType(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([A-Za-z0-9._:-]+)"?/i.exec(contentType ?? '');

  return match?.[1] && isKnownEncoding(match[1]) ? match[1] : undefined;
}

function bomEncoding(body: Buffer): { label: string; length: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { label: 'utf-8', length: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { label: 'utf-16le', length: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { label: 'utf-16be', length: 2 };

  return undefined;
}

function xmlDeclarationEncoding(body: Buffer): string | undefined {
  // The declaration is ASCII in every encoding a declaration can name without a BOM.
  const head = body.subarray(0, 512).toString('latin1');
  const match = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);

  return match?.[1] && isKnownEncoding(match[1]) ? match[1] : undefined;
}

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);

    return true;
  } catch {
    return false;
  }
}

function decodeWith(label: string, bytes: Uint8Array): string {
  // ignoreBOM: the BOM was removed above; a U+FEFF further in is content.
  const decoder = new TextDecoder(label, { ignoreBOM: true });
  if (decoder.encoding !== 'windows-1252') return decoder.decode(bytes);

  // WHATWG reads ISO-8859-1, ASCII and windows-1252 labels as windows-1252, but Node 20 decodes 0x80–0x9F as C1
  // controls instead of €, ‘, ”, – and the like, which is what such documents mean.
  return Buffer.from(bytes)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

// prettier-ignore
const WINDOWS_1252_HIGH = [
  '\u20ac', '\x81', '\u201a', '\u0192', '\u201e', '\u2026', '\u2020', '\u2021', '\u02c6', '\u2030', '\u0160', '\u2039', '\u0152', '\x8d', '\u017d', '\x8f',
  '\x90', '\u2018', '\u2019', '\u201c', '\u201d', '\u2022', '\u2013', '\u2014', '\u02dc', '\u2122', '\u0161', '\u203a', '\u0153', '\x9d', '\u017e', '\u0178',
];

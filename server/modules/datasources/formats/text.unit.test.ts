import { describe, expect, it } from 'vitest';
import { decodeBody } from './text';

describe('decodeBody', () => {
  it('removes a UTF-8 BOM and reads UTF-16 by its BOM', () => {
    expect(decodeBody(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('a');
    expect(decodeBody(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from([0x00, 0xe9])]))).toBe('é');
    expect(decodeBody(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a/>', 'utf16le')]), { sniffXmlDeclaration: true })).toBe(
      '<a/>',
    );
  });

  it('reads windows-1252 for ISO-8859-1 labels, € and – included', () => {
    const bytes = Buffer.from([0x80, 0x20, 0x96, 0x20, 0xe9]);
    expect(decodeBody(bytes, { contentType: 'text/plain; charset=ISO-8859-1' })).toBe('€ – é');
    expect(decodeBody(bytes, { contentType: 'text/plain; charset="windows-1252"' })).toBe('€ – é');
  });

  it('prefers the Content-Type charset to the XML declaration, and the declaration to UTF-8', () => {
    const declared = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'),
      Buffer.from([0xe9]),
      Buffer.from('</a>'),
    ]);
    expect(decodeBody(declared, { sniffXmlDeclaration: true })).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>');
    expect(decodeBody(declared, { sniffXmlDeclaration: true, contentType: 'application/xml; charset=utf-8' })).toContain('<a>\uFFFD</a>');
  });

  it('falls back to UTF-8 for an unknown charset and replaces undecodable bytes', () => {
    expect(decodeBody(Buffer.from([0x61, 0xff, 0x62]), { contentType: 'text/plain; charset=x-unknown' })).toBe('a\uFFFDb');
  });
});

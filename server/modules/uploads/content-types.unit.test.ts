import { describe, expect, it } from 'vitest';
import { downloadSafetyHeaders, namedFileType, realContentType, servedContentType } from './content-types';

const head = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const PNG = head([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest');
const JPEG = head([0xff, 0xd8, 0xff, 0xe0], 'JFIF');
const HTML = head('<!doctype html><script>alert(document.cookie)</script>');

describe('realContentType', () => {
  it('answers the type the first bytes show, whatever the extension', () => {
    expect(realContentType('x.png', PNG)).toBe('image/png');
    expect(realContentType('x.png', JPEG)).toBe('image/jpeg');
    expect(realContentType('photo.jpg', PNG)).toBe('image/png');
    expect(realContentType('a.gif', head('GIF89a...'))).toBe('image/gif');
    expect(realContentType('a.webp', head('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
    expect(realContentType('a.wav', head('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('audio/wav');
    expect(realContentType('a.mp4', head([0, 0, 0, 0x18], 'ftypisom'))).toBe('video/mp4');
    expect(realContentType('a.mov', head([0, 0, 0, 0x14], 'ftypqt  '))).toBe('video/quicktime');
    expect(realContentType('a.webm', head([0x1a, 0x45, 0xdf, 0xa3]))).toBe('video/webm');
    expect(realContentType('a.ogg', head('OggS'))).toBe('audio/ogg');
    expect(realContentType('a.mp3', head('ID3', [4, 0]))).toBe('audio/mpeg');
    expect(realContentType('a.pdf', head('%PDF-1.7'))).toBe('application/pdf');
    expect(realContentType('a.woff2', head('wOF2'))).toBe('font/woff2');
    expect(realContentType('a.otf', head('OTTO'))).toBe('font/otf');
  });

  it('trusts weak signatures only when the extension agrees', () => {
    expect(realContentType('a.mp3', head([0xff, 0xfb, 0x90, 0x00]))).toBe('audio/mpeg');
    expect(realContentType('a.mp4', head([0xff, 0xfb, 0x90, 0x00]))).toBe('video/mp4');
    expect(realContentType('a.ttf', head([0, 1, 0, 0]))).toBe('font/ttf');
    expect(realContentType('a.json', head([0, 1, 0, 0]))).toBe('application/json');
    expect(realContentType('a.mov', head([0, 0, 0, 8], 'wide'))).toBe('video/quicktime');
  });

  it('falls back to the extension for unrecognised bytes and never promotes anything into markup', () => {
    expect(realContentType('x.png', HTML)).toBe('image/png');
    expect(realContentType('x.png', head('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'))).toBe('image/png');
    expect(realContentType('data.json', head('{"a":1}'))).toBe('application/json');
    expect(realContentType('icon.svg', head('<svg/>'))).toBe('image/svg+xml');
    expect(realContentType('empty.mp4', Buffer.alloc(0))).toBe('video/mp4');
  });
});

describe('namedFileType (a file that did not come as an upload)', () => {
  it('keeps a supported extension, the type then read from the bytes as for an upload', () => {
    expect(namedFileType({ name: 'menu.pdf', head: head('%PDF-1.7') })).toEqual({ name: 'menu.pdf', contentType: 'application/pdf' });
    expect(namedFileType({ name: 'x.png', head: JPEG, declaredType: 'text/html' })).toEqual({ name: 'x.png', contentType: 'image/jpeg' });
  });

  it('names a file without one by its bytes first, then by the declared type', () => {
    expect(namedFileType({ name: 'latest', head: PNG, declaredType: 'application/octet-stream' })).toEqual({
      name: 'latest.png',
      contentType: 'image/png',
    });
    expect(namedFileType({ name: 'poster.php', head: JPEG })).toEqual({ name: 'poster.php.jpg', contentType: 'image/jpeg' });
    expect(namedFileType({ name: 'logo', head: head('<svg/>'), declaredType: 'image/svg+xml; charset=utf-8' })).toEqual({
      name: 'logo.svg',
      contentType: 'image/svg+xml',
    });
  });

  it('refuses what no supported type describes, and keeps names within 255 characters', () => {
    expect(namedFileType({ name: 'index', head: HTML, declaredType: 'text/html' })).toBeUndefined();
    expect(namedFileType({ name: 'blob', head: head('just text') })).toBeUndefined();
    const long = namedFileType({ name: 'n'.repeat(300), head: PNG });
    expect(long?.name).toHaveLength(255);
    expect(long?.name.endsWith('.png')).toBe(true);
  });
});

describe('servedContentType', () => {
  it("serves a stored supported type, and the extension's type for anything else stored", () => {
    expect(servedContentType('a.png', 'image/jpeg')).toBe('image/jpeg');
    expect(servedContentType('x.png', 'text/html')).toBe('image/png');
    expect(servedContentType('x.png', 'TEXT/HTML; charset=utf-8')).toBe('image/png');
    expect(servedContentType('x.json', 'application/javascript')).toBe('application/json');
    expect(servedContentType('x.exe', 'text/html')).toBe('application/octet-stream');
  });
});

describe('downloadSafetyHeaders', () => {
  it('always answers nosniff and a sandboxing CSP; script-capable types only as attachments', () => {
    for (const type of [
      'image/png',
      'video/mp4',
      'application/pdf',
      'image/svg+xml',
      'application/json',
      'font/woff2',
      'application/octet-stream',
    ]) {
      const h = downloadSafetyHeaders(type, 'f');
      expect(h['X-Content-Type-Options']).toBe('nosniff');
      expect(h['Content-Security-Policy']).toMatch(/^sandbox[ ;]/);
      expect(h['Content-Security-Policy']).not.toMatch(/allow-scripts/);
      expect(h['Content-Security-Policy']).toContain("default-src 'none'");
    }
    expect(downloadSafetyHeaders('image/svg+xml', 'a.svg')['Content-Disposition']).toMatch(/^attachment;/);
    expect(downloadSafetyHeaders('application/octet-stream', 'a')['Content-Disposition']).toMatch(/^attachment;/);
    for (const type of ['image/png', 'image/jpeg', 'video/webm', 'audio/mpeg', 'application/pdf'])
      expect(downloadSafetyHeaders(type, 'f')['Content-Disposition']).toMatch(/^inline;/);
    // Audio and video documents load their own URL again: they keep their origin, still without script.
    expect(downloadSafetyHeaders('video/mp4', 'f')['Content-Security-Policy']).toMatch(/^sandbox allow-same-origin;/);
    expect(downloadSafetyHeaders('image/png', 'f')['Content-Security-Policy']).toMatch(/^sandbox;/);
  });
});

import { describe, expect, it } from 'vitest';
import { contentDispositionFileName, remoteFileName, sanitizeFileName, urlFileName } from './remote-file-name';

describe('contentDispositionFileName', () => {
  it('reads filename* (UTF-8 and ISO-8859-1) before filename, quoted or not', () => {
    expect(contentDispositionFileName(`attachment; filename="fallback.pdf"; filename*=UTF-8''Men%C3%BC%20heute.pdf`)).toBe(
      'Menü heute.pdf',
    );
    expect(contentDispositionFileName(`inline; filename*=iso-8859-1'de'K%E4se.png`)).toBe('Käse.png');
    expect(contentDispositionFileName('attachment; filename="say \\"hi\\"; now.png"')).toBe('say "hi"; now.png');
    expect(contentDispositionFileName('attachment; FILENAME=plain.jpg ')).toBe('plain.jpg');
  });

  it('falls back to filename when filename* cannot be read, and answers nothing without a name', () => {
    expect(contentDispositionFileName(`attachment; filename*=UTF-8''%E0%A4%A; filename=ok.png`)).toBe('ok.png');
    expect(contentDispositionFileName(`attachment; filename*=koi8-r''x.png`)).toBeUndefined();
    expect(contentDispositionFileName('inline')).toBeUndefined();
    expect(contentDispositionFileName(undefined)).toBeUndefined();
  });
});

describe('urlFileName', () => {
  it('answers the last non-empty path segment, percent-decoded', () => {
    expect(urlFileName('https://cdn.example.com/media/Poster%20A.jpg?v=3#top')).toBe('Poster A.jpg');
    expect(urlFileName('https://cdn.example.com/media/latest/')).toBe('latest');
    expect(urlFileName('https://cdn.example.com/')).toBeUndefined();
    expect(urlFileName('https://cdn.example.com/bad%E0')).toBe('bad%E0');
  });
});

describe('sanitizeFileName', () => {
  it('drops NUL and control characters, directories and leading or trailing dots', () => {
    expect(sanitizeFileName('a\u0000b\u0007c.png')).toBe('abc.png');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\..\\boot.ini')).toBe('boot.ini');
    expect(sanitizeFileName('reports/ ')).toBe('reports');
    expect(sanitizeFileName('  .hidden  name.  ')).toBe('hidden name');
    expect(sanitizeFileName('\u0000..\u0000')).toBe('');
  });

  it('shortens a long name to 255 characters, keeping its extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(400)}.woff2`);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.woff2')).toBe(true);
  });
});

describe('remoteFileName', () => {
  it('takes the Content-Disposition name, else the URL’s last segment, else the fallback', () => {
    const url = 'https://example.com/files/today.pdf';
    expect(remoteFileName({ contentDisposition: 'attachment; filename="menu.pdf"', url, fallback: 'Menu' })).toBe('menu.pdf');
    expect(remoteFileName({ url, fallback: 'Menu' })).toBe('today.pdf');
    expect(remoteFileName({ contentDisposition: 'attachment; filename="/"', url: 'https://example.com/', fallback: 'Menu' })).toBe('Menu');
    expect(remoteFileName({ url: 'https://example.com/%00', fallback: '\u0000' })).toBe('file');
  });
});

import { describe, expect, it } from 'vitest';
import { countOf, formatBytes, formatDate, formatDateTime, formatNumber } from './format';

describe('countOf', () => {
  it('says one and many', () => {
    const file = { one: 'file', other: 'files' };
    expect(countOf(1, file, 'en')).toBe('1 file');
    expect(countOf(0, file, 'en')).toBe('0 files');
    expect(countOf(3, file, 'en')).toBe('3 files');
  });

  it('groups digits by the locale', () => {
    expect(countOf(1024, { one: 'Datei', other: 'Dateien' }, 'de')).toBe('1.024 Dateien');
    expect(countOf(1024, { one: 'file', other: 'files' }, 'en')).toBe('1,024 files');
  });
});

describe('formatBytes', () => {
  it('steps by 1024 with one decimal below 10, the decimal mark of the locale', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(1536 * 1024, 'en')).toBe('1.5 MB');
    expect(formatBytes(1536 * 1024, 'de')).toBe('1,5 MB');
    expect(formatBytes(20 * 1024 ** 3, 'de')).toBe('20 GB');
    expect(formatBytes(null, 'de')).toBe('—');
  });
});

describe('dates and numbers', () => {
  const at = Date.UTC(2026, 10, 28, 12, 0);
  it('follow the locale', () => {
    expect(formatDate(at, '—', 'de')).toMatch(/^28\.11\.2026$/);
    expect(formatDate(at, '—', 'en')).toBe('Nov 28, 2026');
    expect(formatDateTime(at, '—', 'de')).toMatch(/^28\.11\.2026, \d\d:00$/);
    expect(formatNumber(1234.5, 'de', 1)).toBe('1.234,5');
    expect(formatDate(null, 'never', 'de')).toBe('never');
  });
});

import { describe, expect, it } from 'vitest';
import { storable, storableText } from './storable';

describe('storable', () => {
  it('removes NUL characters from every string and key, however deep', () => {
    const document = { 'ke\u0000y': ['a\u0000', { deep: [[['\u0000x\u0000']]] }], n: 1 };
    expect(storable(document)).toEqual({ key: ['a', { deep: [[['x']]] }], n: 1 });
  });

  it('replaces lone surrogates (refused by jsonb) and keeps pairs', () => {
    expect(storableText('a\uD800b\uDC00c')).toBe('a\uFFFDb\uFFFDc');
    expect(storableText('emoji \uD83D\uDE00')).toBe('emoji 😀');
  });

  it('writes only what JSON holds: undefined members dropped, NaN as null, dates as ISO text', () => {
    expect(storable({ a: undefined, b: Number.NaN, c: [undefined, Infinity], d: new Date(Date.UTC(2026, 0, 1)) })).toEqual({
      b: null,
      c: [null, null],
      d: '2026-01-01T00:00:00.000Z',
    });
  });

  it('keeps "__proto__" as an own key', () => {
    const cleaned = storable(JSON.parse('{"__proto__": {"x\\u0000": 1}}'));
    expect(Object.keys(cleaned)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
  });
});

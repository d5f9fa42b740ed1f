import { describe, expect, it } from 'vitest';
import { ValidationError } from '@/server/errors';
import {
  assertNoNul,
  assertSafeJson,
  findNul,
  MAX_JSON_DEPTH,
  NestingTooDeepError,
  nestingDepth,
  NulCharacterError,
  parseSafeJson,
} from './hostile-input';

describe('findNul', () => {
  it('finds a NUL in values, nested values and keys', () => {
    expect(findNul('a\u0000b')).toBe('');
    expect(findNul({ a: { b: ['x', 'y\u0000'] } })).toBe('a.b.1');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findNul({ a: 'fine', n: 1, t: true, z: null })).toBeUndefined();
  });

  it('assertNoNul throws the 400 with the path', () => {
    expect(() => assertNoNul('json', { name: 'a\u0000' })).toThrow(NulCharacterError);
    try {
      assertNoNul('json', { name: 'a\u0000' });
    } catch (err) {
      expect((err as NulCharacterError).status).toBe(400);
      expect((err as NulCharacterError).details).toEqual({ target: 'json', path: 'name' });
    }
  });
});

describe('deep values', () => {
  const deep = (levels: number): unknown => JSON.parse('['.repeat(levels) + '"x\\u0000"' + ']'.repeat(levels));

  it('walks 100 000 levels without overflowing the stack', () => {
    expect(findNul(deep(100_000))).toBe(Array(100_000).fill('0').join('.'));
    expect(nestingDepth(deep(100_000))).toBe(100_000);
  });

  it('measures nesting, stopping early past a limit', () => {
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth([])).toBe(1);
    expect(nestingDepth({ a: [{ b: 1 }], c: 2 })).toBe(3);
    expect(nestingDepth(deep(1_000), 10)).toBe(11);
  });

  it('assertSafeJson refuses depth before NUL, and accepts MAX_JSON_DEPTH levels', () => {
    expect(() => assertSafeJson('json', deep(MAX_JSON_DEPTH + 1))).toThrow(NestingTooDeepError);
    expect(() => assertSafeJson('json', deep(MAX_JSON_DEPTH))).toThrow(NulCharacterError);
    expect(() => assertSafeJson('json', JSON.parse('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))).not.toThrow();
  });
});

describe('parseSafeJson (a message outside an HTTP body: a WebSocket frame)', () => {
  it('parses, and holds the result to the JSON body rule', () => {
    expect(parseSafeJson('frame', '{"type":"heartbeat","version":"1"}')).toEqual({ type: 'heartbeat', version: '1' });
    expect(() => parseSafeJson('frame', '{"type":"heartbeat","version":"\\u0000"}')).toThrow(NulCharacterError);
    expect(() => parseSafeJson('frame', '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toThrow(NestingTooDeepError);
    expect(() => parseSafeJson('frame', 'not json')).toThrow(ValidationError);
  });
});

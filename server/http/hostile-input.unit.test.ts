import { describe, expect, it } from 'vitest';
import { assertNoNul, findNul, NulCharacterError } from './hostile-input';

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

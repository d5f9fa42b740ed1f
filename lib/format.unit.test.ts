import { describe, expect, it } from 'vitest';
import { countOf } from './format';

describe('countOf', () => {
  it('says one and many', () => {
    const file = { one: 'file', other: 'files' };
    expect(countOf(1, file)).toBe('1 file');
    expect(countOf(0, file)).toBe('0 files');
    expect(countOf(3, file)).toBe('3 files');
  });
});

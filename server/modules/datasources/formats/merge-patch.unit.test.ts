import { describe, expect, it } from 'vitest';
import { mergePatch } from './merge-patch';

describe('mergePatch (RFC 7396)', () => {
  // RFC 7396 Appendix A, every example in order: original, patch, result.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('Appendix A: %j patched with %j is %j', (original, patch, result) => {
    expect(mergePatch(original, patch)).toEqual(result);
  });

  it('applies the example of section 3', () => {
    const original = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(mergePatch(original, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('never modifies the target', () => {
    const target = { a: { b: 1, c: [1, 2] }, d: 'x' };
    const snapshot = structuredClone(target);
    mergePatch(target, { a: { b: null, c: [3] }, d: null, e: 1 });
    expect(target).toEqual(snapshot);
  });

  it('merges "__proto__" as an ordinary member', () => {
    const patch = JSON.parse('{"__proto__": {"isPolluted": true}}');
    const merged = mergePatch({ a: 1 }, patch);
    expect(Object.keys(merged as object)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Reflect.get({}, 'isPolluted')).toBeUndefined();
  });
});

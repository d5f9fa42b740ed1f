import { describe, expect, it } from 'vitest';
import { buildQuery } from '@/lib/api/client';
import { and, encodeValue, NOT_NULL, NULL, or, term, toSearch } from '@/lib/api/query-language';

describe('query-language', () => {
  it('encodes a value once inside the expression', () => {
    expect(term('name', ':', 'a,b').text).toBe('name:a%2Cb');
    expect(term('name', ':', 'x|y(z)').text).toBe('name:x%7Cy%28z%29');
    expect(term('email', '^', "o'neil!*").text).toBe('email^o%27neil%21%2A');
  });

  it('encodes the whole parameter a second time when building the URL', () => {
    const search = toSearch(term('name', ':', 'a,b'));
    expect(buildQuery({ search })).toBe('?search=name%3Aa%252Cb');
    // Decoding once (what the HTTP layer does) gives back the expression with the value still encoded.
    expect(decodeURIComponent('name%3Aa%252Cb')).toBe('name:a%2Cb');
  });

  it('joins AND with commas and OR with bars', () => {
    expect(and(term('a', '=', 1), term('b', '=', 2)).text).toBe('a=1,b=2');
    expect(or(term('a', '=', 1), term('b', '=', 2)).text).toBe('a=1|b=2');
  });

  it('parenthesises AND groups inside OR, since OR binds tighter', () => {
    const expr = or(and(term('a', '=', 1), term('b', '=', 2)), term('c', '=', 3));
    expect(expr.text).toBe('(a=1,b=2)|c=3');
    expect(and(or(term('a', '=', 1), term('b', '=', 2)), term('c', '=', 3)).text).toBe('a=1|b=2,c=3');
  });

  it('drops empty parts and unwraps single parts', () => {
    expect(and(null, term('a', ':', 'x'), undefined, false).text).toBe('a:x');
    expect(toSearch(and())).toBeUndefined();
    expect(toSearch(or(and(), null))).toBeUndefined();
  });

  it('writes keywords, booleans, dates and sets in their own form', () => {
    expect(term('parentId', '=', NULL).text).toBe('parentId=NULL');
    expect(term('parentId', '=', NOT_NULL).text).toBe('parentId=!NULL');
    expect(term('enabled', '=', true).text).toBe('enabled=true');
    expect(term('createdDate', '≥', new Date(1_700_000_000_000)).text).toBe('createdDate≥1700000000000');
    expect(term('tags', '∈', ['a', 'b']).text).toBe('tags∈a%2Cb');
  });

  it('encodes non-ASCII values and operators as UTF-8', () => {
    expect(encodeValue('Zürich')).toBe('Z%C3%BCrich');
    expect(buildQuery({ search: term('x', '≠', 1).text })).toBe('?search=x%E2%89%A01');
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors';
import { buildPage, MAX_PAGE, MAX_PAGE_SIZE, parsePaging } from './paging';

describe('parsePaging', () => {
  it('defaults to page 0, size 20', () => {
    expect(parsePaging({})).toEqual({ page: 0, size: 20 });
    expect(parsePaging({ page: '', size: '' })).toEqual({ page: 0, size: 20 });
  });

  it('accepts strings and numbers', () => {
    expect(parsePaging({ page: '3', size: '1000' })).toEqual({ page: 3, size: 1000 });
    expect(parsePaging({ page: 2, size: 5 })).toEqual({ page: 2, size: 5 });
  });

  it.each([
    [{ page: '-1' }, 'page'],
    [{ size: '0' }, 'size'],
    [{ size: '1001' }, 'size'],
    [{ size: '1.5' }, 'size'],
    [{ page: 'abc' }, 'page'],
    [{ page: '1e3' }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ page: '9007199254740991', size: '10' }, 'page'],
    [{ page: String(MAX_PAGE + 1), size: '1' }, 'page'],
  ])('%j is a 400 on %s', (input, parameter) => {
    try {
      parsePaging(input);
      throw new Error('expected failure');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).key).toBe('paging.error.invalid');
      expect((error as ValidationError).details?.parameter).toBe(parameter);
    }
  });

  it('takes every page up to MAX_PAGE, the maximum the document states, at every size', () => {
    expect(parsePaging({ page: String(MAX_PAGE), size: String(MAX_PAGE_SIZE) })).toEqual({ page: MAX_PAGE, size: MAX_PAGE_SIZE });
    expect(Number.isSafeInteger(MAX_PAGE * MAX_PAGE_SIZE)).toBe(true);
  });

  it('applies a lower cap', () => {
    expect(() => parsePaging({ size: '51' }, 50)).toThrow(ValidationError);
  });
});

describe('buildPage', () => {
  it('computes the envelope', () => {
    expect(buildPage([1, 2], { page: 0, size: 2 }, 5, 'name,asc')).toEqual({
      content: [1, 2],
      first: true,
      last: false,
      number: 0,
      numberOfElements: 2,
      size: 2,
      totalElements: 5,
      totalPages: 3,
      sort: 'name,asc',
    });
    expect(buildPage([5], { page: 2, size: 2 }, 5)).toMatchObject({ first: false, last: true, totalPages: 3 });
    expect(buildPage([], { page: 0, size: 20 }, 0)).toMatchObject({ first: true, last: true, totalPages: 0 });
    expect(buildPage([], { page: 9, size: 2 }, 5)).toMatchObject({ first: false, last: true, numberOfElements: 0 });
  });
});

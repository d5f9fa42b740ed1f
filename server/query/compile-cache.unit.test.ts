import { PgDialect } from 'drizzle-orm/pg-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../errors';
import { cachedProjection, cachedSearch, cachedSort, clearCompileCache } from './compile-cache';
import { compileSearch } from './search/compile';
import { folderResource, itemResource } from './test/fixtures';

const dialect = new PgDialect();

describe('compile cache', () => {
  beforeEach(() => clearCompileCache());

  it('answers the same compiled search for the same resource and input, and the same SQL as a fresh compile', () => {
    const first = cachedSearch(itemResource, 'name:abc,count>3');
    expect(cachedSearch(itemResource, 'name:abc,count>3')).toBe(first);
    expect(dialect.sqlToQuery(first!)).toEqual(dialect.sqlToQuery(compileSearch(itemResource, 'name:abc,count>3')!));
  });

  it('keeps resources and kinds apart', () => {
    expect(cachedSearch(folderResource, 'name:abc')).not.toBe(cachedSearch(itemResource, 'name:abc'));
    expect(cachedProjection(itemResource, 'name')).toBe(cachedProjection(itemResource, 'name'));
    expect(cachedSort(itemResource, ['name,asc'])).toBe(cachedSort(itemResource, 'name,asc'));
    expect(cachedSort(itemResource, ['name,desc'])).not.toBe(cachedSort(itemResource, ['name,asc']));
  });

  it('does not cache failures: a bad input throws every time', () => {
    expect(() => cachedSearch(itemResource, 'nope:1')).toThrow(ValidationError);
    expect(() => cachedSearch(itemResource, 'nope:1')).toThrow(ValidationError);
  });

  it('stays bounded', () => {
    const first = cachedSearch(itemResource, 'name:first');
    for (let i = 0; i < 2_500; i++) cachedSearch(itemResource, `name:other${i}`);
    // 'name:first' was evicted: asking again compiles a new object.
    expect(cachedSearch(itemResource, 'name:first')).not.toBe(first);
    const recent = cachedSearch(itemResource, 'name:other2499');
    expect(cachedSearch(itemResource, 'name:other2499')).toBe(recent);
  });
});

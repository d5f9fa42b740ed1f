import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors';
import { compileSort } from './sort';
import { itemResource } from './test/fixtures';

const dialect = new PgDialect();
const orderBy = (sort?: string | string[]) => dialect.sqlToQuery(sql.join(compileSort(itemResource, sort).orderBy, sql`, `)).sql;

describe('sort', () => {
  it('appends id asc as the tie-breaker', () => {
    expect(orderBy()).toBe('"items"."id" asc');
    expect(orderBy('name')).toBe('"items"."name" asc, "items"."id" asc');
    expect(orderBy(['name,DESC', 'count,asc'])).toBe('"items"."name" desc, "items"."count" asc, "items"."id" asc');
  });

  it('does not repeat id when given', () => {
    expect(orderBy(['id,desc'])).toBe('"items"."id" desc');
  });

  it('sorts by a to-one relation field through a correlated subquery', () => {
    expect(orderBy('folder.parent.name,desc')).toBe(
      '(select (select "o2"."name" from "folders" "o2" where "o2"."id" = "o1"."parent_id" limit 1) from "folders" "o1" ' +
        'where "o1"."id" = "items"."folder_id" limit 1) desc, "items"."id" asc',
    );
  });

  it('echoes the given values', () => {
    expect(compileSort(itemResource, ['name,desc', 'count']).echo).toBe('name,desc;count');
    expect(compileSort(itemResource, undefined).echo).toBeUndefined();
  });

  it.each([
    ['nope', 'sort.error.unknownField'],
    ['meta', 'sort.error.unknownField'],
    ['hidden', 'sort.error.unknownField'],
    ['teamAssignments.teamId', 'sort.error.unknownField'],
    ['folder', 'sort.error.unknownField'],
    ['name.x', 'sort.error.unknownField'],
    ['name,up', 'sort.error.invalidDirection'],
    ['name,asc,x', 'sort.error.invalid'],
    ['na me', 'sort.error.invalid'],
    [',asc', 'sort.error.invalid'],
  ])('%s → %s', (sort, key) => {
    try {
      compileSort(itemResource, sort);
      throw new Error('expected failure');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).key).toBe(key);
    }
  });

  it('limits the number of keys, the length of a value and the depth of a path', () => {
    const fail = (sort: string | string[]) => {
      try {
        compileSort(itemResource, sort);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return { key: (error as ValidationError).key, details: (error as ValidationError).details };
      }
      throw new Error('expected failure');
    };
    expect(
      compileSort(
        itemResource,
        Array.from({ length: 16 }, () => 'name'),
      ).orderBy,
    ).toHaveLength(17);
    expect(fail(Array.from({ length: 17 }, () => 'name'))).toMatchObject({ key: 'sort.error.tooMany', details: { limit: 16 } });
    expect(fail(`${'a'.repeat(257)},asc`)).toMatchObject({ key: 'sort.error.tooLong', details: { limit: 256 } });
    expect(fail(`${'folder.parent.'.repeat(4)}name`)).toMatchObject({ key: 'sort.error.tooDeep', details: { limit: 8 } });
    expect(fail(`${'folder.'.repeat(5000)}name`)).toMatchObject({ key: 'sort.error.tooLong' });
  });
});

import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { deviceContents } from '@/server/modules/content/content.table';
import { arrayParam, uuidArrayParam, uuidEquals } from './sql';

const render = (query: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(query);
const A = '0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b';
const B = '0191A2B3-C4D5-7E6F-8A9B-0C1D2E3F4A5C';

describe('uuidArrayParam', () => {
  it('binds any number of uuids as one array parameter', () => {
    expect(render(uuidArrayParam([A, B]))).toMatchObject({ sql: '$1::uuid[]', params: [`{${A},${B}}`] });
    expect(render(uuidArrayParam([]))).toMatchObject({ sql: '$1::uuid[]', params: ['{}'] });
  });

  it('refuses anything that is not a uuid (the literal could carry more)', () => {
    expect(() => uuidArrayParam([A, `${A},${B}`])).toThrow(/not a uuid/);
    expect(() => uuidArrayParam(['}'])).toThrow(/not a uuid/);
  });
});

describe('uuidEquals', () => {
  it('compares the uuid column with the id cast to uuid (an index lookup), and finds nothing for a non-uuid', () => {
    expect(render(uuidEquals(deviceContents.id, B))).toMatchObject({ sql: '"device_content"."id" = $1::uuid', params: [B] });
    expect(render(uuidEquals(deviceContents.id, 'not-a-uuid'))).toMatchObject({ sql: 'false', params: [] });
  });
});

describe('arrayParam', () => {
  it('binds values of a type as one array literal, nulls as NULL', () => {
    expect(render(arrayParam([1, null, 3], 'bigint'))).toMatchObject({ sql: '$1::bigint[]', params: ['{1,NULL,3}'] });
    expect(render(arrayParam([true, false, null], 'boolean'))).toMatchObject({ sql: '$1::boolean[]', params: ['{t,f,NULL}'] });
    expect(render(arrayParam([A, null], 'uuid'))).toMatchObject({ sql: '$1::uuid[]', params: [`{${A},NULL}`] });
    expect(render(arrayParam([], 'text'))).toMatchObject({ sql: '$1::text[]', params: ['{}'] });
  });

  it('quotes text, escaping quotes and backslashes, so NULL, commas and braces stay text', () => {
    expect(render(arrayParam(['NULL', 'a,b', '{c}', 'say "hi"', 'back\\slash', ''], 'text')).params).toEqual([
      '{"NULL","a,b","{c}","say \\"hi\\"","back\\\\slash",""}',
    ]);
  });

  it('refuses a uuid that is not one and a number that is not a safe integer', () => {
    expect(() => arrayParam([`${A},${B}`], 'uuid')).toThrow(/not a uuid/);
    expect(() => arrayParam([1.5], 'integer')).toThrow(/not an integer/);
    expect(() => arrayParam([2 ** 53], 'bigint')).toThrow(/not an integer/);
  });
});

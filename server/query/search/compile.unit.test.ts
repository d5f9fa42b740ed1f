import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors';
import { itemResource, folderResource } from '../test/fixtures';
import { compileSearch } from './compile';
import type { AnyResource } from '../relations';

const dialect = new PgDialect();
const U1 = '0b6a4d1e-7c2f-4a51-9d3e-2f1a6b7c8d90';
const U2 = '1c7b5e2f-8d30-4b62-ae4f-3a2b7c8d9e01';

function compile(search: string, resource: AnyResource = itemResource) {
  const condition = compileSearch(resource, search);
  if (!condition) throw new Error('no condition');
  return dialect.sqlToQuery(condition);
}

function failure(search: string, resource: AnyResource = itemResource) {
  try {
    compileSearch(resource, search);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    return { key: e.key, status: e.status, details: e.details, message: e.message };
  }
  throw new Error(`expected ${search} to fail`);
}

describe('compileSearch per type and operator', () => {
  it.each([
    // strings
    ['name:a%25_b', '"items"."name" like $1', ['%a\\%\\_b%']],
    ['name~a%25_B', '"items"."name" ilike $1', ['%a\\%\\_B%']],
    ['name=abc', '"items"."name" = $1', ['abc']],
    ['name≠abc', '"items"."name" is distinct from $1', ['abc']],
    ['name!=abc', '"items"."name" is distinct from $1', ['abc']],
    ['name∉a\\b', '("items"."name" is null or "items"."name" not like $1)', ['%a\\\\b%']],
    ['name^Ab', '"items"."name" like $1', ['Ab%']],
    ['name∈a%2Cb', '"items"."name" in ($1, $2)', ['a', 'b']],
    ['name:NULL', '"items"."name" is null', []],
    ['description=!NULL', '"items"."description" is not null', []],
    // uuid
    [`id=${U1}`, '"items"."id" = $1', [U1]],
    [`id:${U1.toUpperCase()}`, '"items"."id" = $1', [U1]],
    [`id≠${U1}`, '"items"."id" is distinct from $1', [U1]],
    [`id∈${U1}%2C${U2}`, '"items"."id" in ($1, $2)', [U1, U2]],
    // integer
    ['count=5', '"items"."count" = $1::bigint', ['5']],
    ['count:5', '"items"."count" = $1::bigint', ['5']],
    ['count≠-5', '"items"."count" is distinct from $1::bigint', ['-5']],
    ['count>5', '"items"."count" > $1::bigint', ['5']],
    ['count≥5', '"items"."count" >= $1::bigint', ['5']],
    ['count>=5', '"items"."count" >= $1::bigint', ['5']],
    ['count<5', '"items"."count" < $1::bigint', ['5']],
    ['count≤5', '"items"."count" <= $1::bigint', ['5']],
    ['count<=5', '"items"."count" <= $1::bigint', ['5']],
    ['count∈1%2C2', '"items"."count" in ($1::bigint, $2::bigint)', ['1', '2']],
    ['big=9223372036854775807', '"items"."big" = $1::bigint', ['9223372036854775807']],
    // number
    ['price>1.5', '"items"."price" > $1::numeric', ['1.5']],
    ['price≤1e3', '"items"."price" <= $1::numeric', ['1e3']],
    // boolean
    ['active=true', '"items"."active" = $1', [true]],
    ['active:false', '"items"."active" = $1', [false]],
    // dates
    ['createdAt>1700000000000', '"items"."created_at" > $1::timestamptz', ['2023-11-14T22:13:20.000Z']],
    ['createdAt≥2026-11-21T12:00:00Z', '"items"."created_at" >= $1::timestamptz', ['2026-11-21T12:00:00.000Z']],
    ['createdAt<2026-11-21T12:00:00', '"items"."created_at" < $1::timestamptz', ['2026-11-21T12:00:00.000Z']],
    ['createdAt=2026-11-21T13:00:00%2B01:00', '"items"."created_at" = $1::timestamptz', ['2026-11-21T12:00:00.000Z']],
    ['modifiedAt≤2026-11-21', '"items"."modified_at" <= $1::timestamptz', ['2026-11-21T00:00:00.000Z']],
    ['day=2026-11-21', '"items"."day" = $1::date', ['2026-11-21']],
    ['day>1795262400000', '"items"."day" > $1::date', ['2026-11-21']],
    ['modifiedAt=NULL', '"items"."modified_at" is null', []],
    // enum
    ['status=LIVE', '"items"."status" = $1', ['LIVE']],
    ['status:DRAFT', '"items"."status" = $1', ['DRAFT']],
    ['status≠LIVE', '"items"."status" is distinct from $1', ['LIVE']],
    ['status∈LIVE%2CDRAFT', '"items"."status" in ($1, $2)', ['LIVE', 'DRAFT']],
    // tags
    ['tags:red', '"items"."tags" @> array[$1]::text[]', ['red']],
    [
      'tags=red%2Cblue',
      '("items"."tags" @> array[$1, $2]::text[] and "items"."tags" <@ array[$3, $4]::text[])',
      ['red', 'blue', 'red', 'blue'],
    ],
    ['tags∉red', 'not coalesce("items"."tags" @> array[$1]::text[], false)', ['red']],
    ['tags∈red%2Cblue', '"items"."tags" && array[$1, $2]::text[]', ['red', 'blue']],
    ['tags=NULL', '("items"."tags" is null or cardinality("items"."tags") = 0)', []],
    ['tags=!NULL', 'cardinality("items"."tags") > 0', []],
    // path
    [`folderPath:${U1}`, '"items"."folder_path" @> array[$1]::uuid[]', [U1]],
    // computed
    ['nameLength>3', 'length("items"."name") > $1::bigint', ['3']],
  ])('%s', (search, expectedSql, params) => {
    expect(compile(search)).toMatchObject({ sql: expectedSql, params });
  });
});

describe('compileSearch structure and relations', () => {
  it('compiles a:1|b:2,c:3 as (a or b) and c', () => {
    expect(compile('name:a|description:b,count=3').sql).toBe(
      '(("items"."name" like $1 or "items"."description" like $2) and "items"."count" = $3::bigint)',
    );
  });

  it('lets parentheses override precedence', () => {
    expect(compile('name:a|(description:b,count=3)').sql).toBe(
      '("items"."name" like $1 or ("items"."description" like $2 and "items"."count" = $3::bigint))',
    );
  });

  it('returns undefined for an empty search', () => {
    expect(compileSearch(itemResource, '  ')).toBeUndefined();
    expect(compileSearch(itemResource, undefined)).toBeUndefined();
  });

  it('compiles a to-one chain as EXISTS on an alias', () => {
    expect(compile('folder.name=x').sql).toBe(
      'exists (select 1 from "folders" "s1" where "s1"."id" = "items"."folder_id" and "s1"."name" = $1)',
    );
  });

  it('compiles a to-many chain two levels deep with distinct aliases', () => {
    expect(compile(`teamAssignments.team.id=${U1}`)).toMatchObject({
      sql:
        'exists (select 1 from "team_assignments" "s1" where "s1"."item_id" = "items"."id" and ' +
        'exists (select 1 from "teams" "s2" where "s2"."id" = "s1"."team_id" and "s2"."id" = $1))',
      params: [U1],
    });
  });

  it('compiles a self-relation', () => {
    expect(compile('parent.parent.name=root', folderResource).sql).toBe(
      'exists (select 1 from "folders" "s1" where "s1"."id" = "folders"."parent_id" and ' +
        'exists (select 1 from "folders" "s2" where "s2"."id" = "s1"."parent_id" and "s2"."name" = $1))',
    );
  });

  it.each([
    ['folder=NULL', '"items"."folder_id" is null'],
    ['folder:!NULL', '"items"."folder_id" is not null'],
    ['teamAssignments=NULL', 'not exists (select 1 from "team_assignments" "s1" where "s1"."item_id" = "items"."id")'],
    ['teamAssignments=!NULL', 'exists (select 1 from "team_assignments" "s1" where "s1"."item_id" = "items"."id")'],
    [
      'teamAssignments.team=NULL',
      'exists (select 1 from "team_assignments" "s1" where "s1"."item_id" = "items"."id" and not exists (select 1 from "teams" "s2" where "s2"."id" = "s1"."team_id"))',
    ],
  ])('%s', (search, expectedSql) => {
    expect(compile(search).sql).toBe(expectedSql);
  });

  it('compiles NULL on a to-many relation of a self-related resource', () => {
    expect(compile('items=NULL', folderResource).sql).toBe(
      'not exists (select 1 from "items" "s1" where "s1"."folder_id" = "folders"."id")',
    );
  });
});

describe('compileSearch errors', () => {
  it.each([
    ['nope=1', 'search.error.unknownField', 0, 'nope=1'],
    ['name:a,folder.nope=1', 'search.error.unknownField', 7, 'folder.nope=1'],
    ['name.x=1', 'search.error.unknownField', 0, 'name.x=1'],
    ['meta=1', 'search.error.unknownField', 0, 'meta=1'],
    ['meta=NULL', 'search.error.unknownField', 0, 'meta=NULL'],
    ['constructor=1', 'search.error.unknownField', 0, 'constructor=1'],
    ['count^1', 'search.error.invalidOperator', 0, 'count^1'],
    ['count∉1', 'search.error.invalidOperator', 0, 'count∉1'],
    ['active≠true', 'search.error.invalidOperator', 0, 'active≠true'],
    ['active>true', 'search.error.invalidOperator', 0, 'active>true'],
    ['name>a', 'search.error.invalidOperator', 0, 'name>a'],
    [`id^${U1}`, 'search.error.invalidOperator', 0, `id^${U1}`],
    ['status^LI', 'search.error.invalidOperator', 0, 'status^LI'],
    ['tags>a', 'search.error.invalidOperator', 0, 'tags>a'],
    [`folderPath=${U1}`, 'search.error.invalidOperator', 0, `folderPath=${U1}`],
    // `~` (case-insensitive contains) is for string fields only
    ['count~1', 'search.error.invalidOperator', 0, 'count~1'],
    ['tags~red', 'search.error.invalidOperator', 0, 'tags~red'],
    ['status~LI', 'search.error.invalidOperator', 0, 'status~LI'],
    [`id~${U1}`, 'search.error.invalidOperator', 0, `id~${U1}`],
    ['id=abc', 'search.error.invalidValue', 0, 'id=abc'],
    [`id∈${U1}%2Cx`, 'search.error.invalidValue', 0, `id∈${U1}%2Cx`],
    ['folderPath:abc', 'search.error.invalidValue', 0, 'folderPath:abc'],
    ['count=1.5', 'search.error.invalidValue', 0, 'count=1.5'],
    ['count=abc', 'search.error.invalidValue', 0, 'count=abc'],
    ['count=', 'search.error.invalidValue', 0, 'count='],
    ['count=9223372036854775808', 'search.error.invalidValue', 0, 'count=9223372036854775808'],
    ['price=NaN', 'search.error.invalidValue', 0, 'price=NaN'],
    ['price=1e999', 'search.error.invalidValue', 0, 'price=1e999'],
    ['active=yes', 'search.error.invalidValue', 0, 'active=yes'],
    ['active=TRUE', 'search.error.invalidValue', 0, 'active=TRUE'],
    ['createdAt>yesterday', 'search.error.invalidValue', 0, 'createdAt>yesterday'],
    ['createdAt>2026-13-45', 'search.error.invalidValue', 0, 'createdAt>2026-13-45'],
    ['createdAt>999999999999999999', 'search.error.invalidValue', 0, 'createdAt>999999999999999999'],
    ['status=GONE', 'search.error.invalidValue', 0, 'status=GONE'],
    ['status=live', 'search.error.invalidValue', 0, 'status=live'],
    ['folder=abc', 'search.error.invalidValue', 0, 'folder=abc'],
  ])('%s → %s', (search, key, position, token) => {
    const error = failure(search);
    expect(error.status).toBe(400);
    expect(error.key).toBe(key);
    expect(error.details).toMatchObject({ position, token });
  });

  it('names the field and the allowed operators', () => {
    expect(failure('count^1').message).toMatch(/'\^' is not allowed for integer field 'count'.*allowed: : = ≠ > ≥ < ≤ ∈/);
    expect(failure('folder.nope=1').message).toContain("Unknown field 'nope' on folder");
  });
});

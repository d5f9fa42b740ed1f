import fc from 'fast-check';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { AppError, ValidationError } from '../../errors';
import { folderResource, itemResource } from '../test/fixtures';
import { compileSearch } from './compile';

const dialect = new PgDialect();

/** Pieces that make random input likely to hit every branch of the tokenizer, parser and compiler. */
const piece = fc.oneof(
  fc.constantFrom(',', '|', '(', ')', ':', '=', '≠', '∉', '^', '>', '≥', '<', '≤', '∈', '~', '!=', '>=', '<=', '!', '.', ' '),
  fc.constantFrom('%', '%2C', '%7C', '%28', '%29', '%E2%89', '%zz', '\\', '_', '\u0000', '😀', 'é'),
  fc.constantFrom('NULL', '!NULL', 'true', 'false', '0b6a4d1e-7c2f-4a51-9d3e-2f1a6b7c8d90', '2026-11-21', '1700000000000', '-1', '1.5'),
  fc.constantFrom('name', 'count', 'price', 'active', 'createdAt', 'day', 'status', 'tags', 'folderPath', 'meta'),
  fc.constantFrom('folder', 'folder.parent', 'teamAssignments', 'teamAssignments.team', 'id', 'parentId', 'items'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

const search = fc.oneof(
  fc.array(piece, { maxLength: 14 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary' }),
);

function attempt(input: string, resource: typeof itemResource | typeof folderResource): void {
  try {
    const condition = compileSearch(resource, input);
    if (condition) dialect.sqlToQuery(condition);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).key).toMatch(/^search\.error\.(syntax|unknownField|invalidOperator|invalidValue|tooDeep|tooLong)$/);
    expect(typeof (error as AppError).details?.position).toBe('number');
  }
}

describe('search never fails with anything but a 400', () => {
  it('on items', () => {
    fc.assert(
      fc.property(search, (input) => attempt(input, itemResource)),
      { numRuns: 3000 },
    );
  });

  it('on folders (self-relation)', () => {
    fc.assert(
      fc.property(search, (input) => attempt(input, folderResource)),
      { numRuns: 1000 },
    );
  });

  it('on deep or long input (nesting, chains), never a stack overflow', () => {
    const unit = fc.constantFrom('(', '(a:1|', 'a:1,(', 'folder.', 'parent.', '%28');
    fc.assert(
      fc.property(unit, fc.integer({ min: 0, max: 6000 }), (piece, n) => {
        attempt(`${piece.repeat(n)}name:1${')'.repeat(n)}`, itemResource);
        attempt(`${piece.repeat(n)}name:1`, folderResource);
      }),
      { numRuns: 60 },
    );
  });

  it('never puts a value into the SQL text', () => {
    // Structure characters end a value, and an unescaped `(` in a value is a syntax error.
    const value = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
      .filter((v) => !/[,|()]/.test(v) && v !== 'NULL' && v !== '!NULL');
    fc.assert(
      fc.property(value, (v) => {
        for (const [operator, expected] of [
          [':', '"items"."name" like $1'],
          ['~', '"items"."name" ilike $1'],
        ] as const) {
          const condition = compileSearch(itemResource, `name${operator}${v}`);
          const query = dialect.sqlToQuery(condition!);
          expect(query.sql).toBe(expected);
          expect(query.params).toHaveLength(1);
        }
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { structureProblem } from './structure';

describe('structureProblem', () => {
  it.each([
    ['KEY_VALUE', { a: 1 }],
    ['LIST', [1, 'a']],
    ['TABLE', { columns: ['Room', 'Status'], rows: [{ Room: 'Orion', Status: 'free' }] }],
    ['TABLE', { columns: [], rows: [] }],
    ['FEED', { title: 'News', items: [{ id: '1', title: 'Hello' }] }],
    ['CUSTOM', 'anything'],
    ['WAY_FINDING', null],
  ] as const)('accepts a fitting %s document', (structureType, document) => {
    expect(structureProblem(structureType, document)).toBeUndefined();
  });

  it.each([
    ['KEY_VALUE', [1], 'A KEY_VALUE datasource holds a JSON object, not an array.'],
    ['KEY_VALUE', null, 'A KEY_VALUE datasource holds a JSON object, not null.'],
    ['LIST', { a: 1 }, 'A LIST datasource holds a JSON array, not an object.'],
    ['TABLE', 'x', 'A TABLE datasource holds {columns, rows}, not a text.'],
    ['TABLE', { rows: [] }, 'A TABLE needs "columns": a list of column names.'],
    ['TABLE', { columns: ['A', 2], rows: [] }, 'TABLE column 2 is a number, not a text.'],
    ['TABLE', { columns: ['A', 'A'], rows: [] }, 'TABLE column "A" appears twice.'],
    ['TABLE', { columns: ['A'] }, 'A TABLE needs "rows": a list of objects keyed by column.'],
    ['TABLE', { columns: ['A'], rows: [{ A: 1 }, [1]] }, 'TABLE row 2 is an array, not an object.'],
    ['FEED', [], 'A FEED datasource holds {items: [...]}, not an array.'],
    ['FEED', { items: {} }, 'A FEED needs "items": a list of feed items.'],
    ['FEED', { items: [{ id: '1', title: 'a' }, 'b'] }, 'FEED item 2 is a text, not an object.'],
    ['FEED', { items: [{ title: 'a' }] }, 'FEED item 1 needs an "id" text.'],
    ['FEED', { items: [{ id: '1', title: 5 }] }, 'FEED item 1 needs a "title" text.'],
  ] as const)('explains why a %s document does not fit: %j', (structureType, document, problem) => {
    expect(structureProblem(structureType, document)).toBe(problem);
  });
});

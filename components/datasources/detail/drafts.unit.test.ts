import { describe, expect, it } from 'vitest';
import {
  addColumn,
  addRow,
  cellValue,
  freeColumnName,
  keyValueDocumentOf,
  keyValueProblems,
  keyValueRowsOf,
  nameProblems,
  parseJson,
  removeColumn,
  removeRow,
  renameColumn,
  setCell,
  tableDocumentOf,
  tableDraftOf,
  documentBytes,
} from './drafts';

describe('cellValue', () => {
  it.each([
    ['42', 42],
    ['-3.5', -3.5],
    ['0.25', 0.25],
    ['0', 0],
  ])('reads %j as the number it writes', (text, value) => expect(cellValue(text)).toBe(value));

  it('keeps a true/false cell one while it reads true or false', () => {
    expect(cellValue('false', true)).toBe(false);
    expect(cellValue('true', false)).toBe(true);
    expect(cellValue('yes', true)).toBe('yes');
    expect(cellValue('true', 'x')).toBe('true');
  });

  it.each(['007', '1e3', ' 42', '42 ', 'NaN', 'Infinity', '', '-0', '1.50', 'abc', '0x10'])('keeps %j as text', (text) =>
    expect(cellValue(text)).toBe(text),
  );
});

describe('the table draft', () => {
  const document = {
    columns: ['Room', 'Seats'],
    rows: [
      { Room: 'Atlas', Seats: 12, note: 'kept' },
      { Room: 'Borealis', Free: true },
    ],
  };

  it('gives back the document it was made from, untouched values keeping their type and keys outside the columns', () => {
    expect(tableDocumentOf(tableDraftOf(document))).toEqual(document);
  });

  it('renames a column and keeps its values', () => {
    const renamed = tableDocumentOf(renameColumn(tableDraftOf(document), 1, 'Places'));
    expect(renamed.columns).toEqual(['Room', 'Places']);
    expect(renamed.rows[0]).toEqual({ Room: 'Atlas', Places: 12, note: 'kept' });
  });

  it('removes a column with its values from every row', () => {
    const removed = tableDocumentOf(removeColumn(tableDraftOf(document), 0));
    expect(removed).toEqual({ columns: ['Seats'], rows: [{ Seats: 12, note: 'kept' }, { Free: true }] });
  });

  it('adds a column and a row, writes cells as numbers or text, and removes a row', () => {
    let draft = addColumn(tableDraftOf(document), freeColumnName(document.columns));
    draft = addRow(draft);
    draft = setCell(draft, 2, 0, 'Cassiopeia');
    draft = setCell(draft, 2, 1, '8');
    draft = setCell(draft, 2, 2, '007');
    expect(tableDocumentOf(draft).columns).toEqual(['Room', 'Seats', 'Column 3']);
    expect(tableDocumentOf(draft).rows[2]).toEqual({ Room: 'Cassiopeia', Seats: 8, 'Column 3': '007' });
    expect(tableDocumentOf(removeRow(draft, 0)).rows.map((r) => r.Room)).toEqual(['Borealis', 'Cassiopeia']);
  });

  it('starts empty from a document that is not a table', () => {
    expect(tableDraftOf([1, 2])).toEqual({ columns: [], rows: [], extras: [] });
  });

  it('names a new column after the ones taken', () => {
    expect(freeColumnName(['Column 2', 'x'])).toBe('Column 3');
    expect(freeColumnName(['Column 3', 'x'])).toBe('Column 4');
  });
});

describe('nameProblems', () => {
  it('marks empty names and every repeat after the first', () => {
    expect(nameProblems(['a', '', 'a', ' ', 'b'])).toEqual([undefined, 'empty', 'duplicate', 'empty', undefined]);
  });
});

describe('the key-value rows', () => {
  it('edit text as text and every other value as JSON, and give back the same object', () => {
    const document = { title: 'Menu', price: 4.5, open: true, tags: ['a'], nothing: null };
    const rows = keyValueRowsOf(document);
    expect(rows).toEqual([
      { key: 'title', text: 'Menu', isJson: false },
      { key: 'price', text: '4.5', isJson: true },
      { key: 'open', text: 'true', isJson: true },
      { key: 'tags', text: '["a"]', isJson: true },
      { key: 'nothing', text: 'null', isJson: true },
    ]);
    expect(keyValueDocumentOf(rows)).toEqual(document);
  });

  it('find empty and repeated keys and JSON that does not parse', () => {
    expect(
      keyValueProblems([
        { key: 'a', text: '{', isJson: true },
        { key: 'a', text: 'x', isJson: false },
        { key: '', text: '1', isJson: true },
        { key: 'b', text: '{', isJson: false },
      ]),
    ).toEqual(['json', 'duplicate', 'empty', undefined]);
  });

  it('keep a key named __proto__ as an own key', () => {
    const document = keyValueDocumentOf([{ key: '__proto__', text: '{"polluted":true}', isJson: true }]);
    expect(Object.keys(document)).toEqual(['__proto__']);
    expect(JSON.stringify(document)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseJson', () => {
  it('answers the value of valid JSON', () => {
    expect(parseJson('[1, {"a": "b"}]')).toEqual({ ok: true, value: [1, { a: 'b' }] });
  });

  it('names the line and column where the text breaks', () => {
    const parsed = parseJson('{\n  "a": 1,\n  "b" 2\n}');
    expect(parsed.ok).toBe(false);
    expect(parsed).toMatchObject({ line: 3, column: 7 });
  });

  it('puts an early end at the end of the text', () => {
    expect(parseJson('{\n  "a": [1,')).toMatchObject({ ok: false, line: 2 });
  });
});

describe('documentBytes', () => {
  it('counts the UTF-8 bytes of the JSON', () => {
    expect(documentBytes({ a: 'ü' })).toBe(10);
  });
});

import { describe, expect, it } from 'vitest';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import { applyJsonPath } from './json-path';
import { parseJsonDocument, parseJsonText } from './json';

describe('parseJsonText', () => {
  it('parses JSON and removes NUL characters from strings and keys', () => {
    expect(parseJsonText('{"name": "Lobby\\u0000 screen", "key\\u0000": [1, "a\\u0000"]}')).toEqual({
      name: 'Lobby screen',
      key: [1, 'a'],
    });
  });

  it('refuses malformed JSON with a readable reason, never a SyntaxError', () => {
    const error = formatErrorOf(() => parseJsonText('{"rooms": [1, 2,]}'));
    expect(error.message).toMatch(/^The document is not valid JSON: /);
    expectReadable(error);
    expect(formatErrorOf(() => parseJsonText('   ')).message).toMatch(/empty/);
  });

  it('refuses nesting past 64 levels by default, and past the given cap', () => {
    expect(parseJsonText(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeDefined();
    expect(formatErrorOf(() => parseJsonText(`${'['.repeat(65)}${']'.repeat(65)}`)).message).toMatch(/more than 64 levels/);
    expect(formatErrorOf(() => parseJsonText('{"a": {"b": {}}}', { maxDepth: 2 })).message).toMatch(/more than 2 levels/);
    // brackets inside strings are not nesting
    expect(parseJsonText(`{"text": "${'['.repeat(500)}"}`, { maxDepth: 1 })).toEqual({ text: '['.repeat(500) });
  });

  it('answers a FormatError, not a RangeError, for hostile depth (100 000 brackets)', () => {
    expect(formatErrorOf(() => parseJsonText('['.repeat(100_000))).message).toMatch(/nested more than/);
    expect(formatErrorOf(() => parseJsonText('{"a":'.repeat(100_000))).message).toMatch(/nested more than/);
  });

  it('keeps a "__proto__" key as data without touching any prototype', () => {
    const parsed = parseJsonText('{"__proto__": {"isPolluted": true}}');
    expect(Object.keys(parsed as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).isPolluted).toBeUndefined();
  });

  it('ignores a leading BOM', () => {
    expect(parseJsonText('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });
});

describe('parseJsonDocument', () => {
  it('answers the whole document without a JSONPath', () => {
    const document = parseJsonDocument(fixture('json-departures.json'), {});
    expect(document).toMatchObject({ station: { name: 'Central Station' } });
  });

  it('answers the one value a JSONPath matches', () => {
    expect(parseJsonDocument(fixture('json-departures.json'), { jsonPath: '$.station.name' })).toBe('Central Station');
    expect(parseJsonDocument(fixture('json-departures.json'), { jsonPath: '$.departures[2].notes' })).toEqual({
      text: 'Replacement bus',
    });
  });

  it('answers the array of matches when a JSONPath matches several', () => {
    const lines = parseJsonDocument(fixture('json-departures.json'), { jsonPath: '$.departures[?(@.delayMinutes > 3)].line' });
    expect(lines).toEqual(['RE5', 'S8']);
  });

  it('refuses a JSONPath that matches nothing', () => {
    const error = formatErrorOf(() => parseJsonDocument(fixture('json-departures.json'), { jsonPath: '$.arrivals' }));
    expect(error.message).toBe('The JSONPath "$.arrivals" matches nothing in the document.');
  });

  it('decodes UTF-16 with a BOM and UTF-8 with a BOM', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"city": "Zürich"}', 'utf16le')]);
    expect(parseJsonDocument(utf16, {})).toEqual({ city: 'Zürich' });
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('["Köln"]')]);
    expect(parseJsonDocument(utf8, {})).toEqual(['Köln']);
  });
});

describe('applyJsonPath', () => {
  const document = { items: [{ price: 5, name: 'tea', tags: ['hot'] }, { price: 15, name: 'cake' }, { name: 'water' }] };

  it('filters with the safe evaluator, an element the filter cannot read counting as no match', () => {
    expect(applyJsonPath(document, '$.items[?(@.price < 10)].name')).toBe('tea');
    // reading .length of a missing "tags" throws for cake and water: they do not match, tea still does
    expect(applyJsonPath(document, '$.items[?(@.tags.length > 0)].name')).toBe('tea');
    expect(applyJsonPath(document, '$.items[*].name')).toEqual(['tea', 'cake', 'water']);
  });

  it('reads a path without the leading $ from the root', () => {
    expect(applyJsonPath(document, 'items[1].name')).toBe('cake');
  });

  it.each([
    ['a constructor chain', "$.items[?(@.name.constructor.constructor('globalThis.wasEvaluated = true')())]"],
    ['an assignment', '$.items[?(globalThis.wasEvaluated = true)]'],
    ['this', '$.items[?(this.constructor.constructor("globalThis.wasEvaluated = true")())]'],
    ['a function call on the root', '$[?(@root.constructor.constructor("globalThis.wasEvaluated = true")())]'],
  ])('never evaluates JavaScript in a filter (%s)', (_, path) => {
    const error = formatErrorOf(() => applyJsonPath(document, path));
    expect(error.message).toMatch(/matches nothing|cannot be used/);
    expect(Reflect.get(globalThis, 'wasEvaluated')).toBeUndefined();
  });

  it('answers a scalar document for "$" only', () => {
    expect(applyJsonPath(42, '$')).toBe(42);
    expect(formatErrorOf(() => applyJsonPath(42, '$.a')).message).toMatch(/matches nothing/);
  });
});

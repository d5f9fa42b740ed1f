import { describe, expect, it } from 'vitest';
import { ValidationError } from '@/server/errors';
import { applyDocumentAction, MAX_CAP_BYTES, type DocumentAction } from './datasource-document-actions';
import { isPlainObject } from './formats';

const NOW = Date.UTC(2026, 2, 16, 8, 0);
const KEY_VALUE = { structureType: 'KEY_VALUE', now: NOW };
const LIST = { structureType: 'LIST', now: NOW };
const FEED = { structureType: 'FEED', now: NOW };

const building = {
  name: 'HQ',
  visitors: 4,
  queue: ['a', 'b', 'c'],
  rooms: [
    { id: 'A-101', name: 'Orion', seats: 6 },
    { id: 'B-204', name: 'Lyra', seats: 10 },
  ],
};

/** The ids of a FEED document's items. */
function itemIds(document: unknown): unknown[] {
  const items: unknown = isPlainObject(document) ? document.items : undefined;

  return Array.isArray(items) ? items.map((item: unknown) => (isPlainObject(item) ? item.id : undefined)) : [];
}

function run(document: unknown, action: DocumentAction, options = KEY_VALUE) {
  return applyDocumentAction(document, action, options);
}

/** The ValidationError `work` throws (the test fails when it throws nothing or another error). */
function refusal(work: () => unknown): ValidationError {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    if (err instanceof ValidationError) return err;
  }
  throw new Error('expected a ValidationError, but nothing was thrown');
}

describe('set and merge', () => {
  it('set replaces the document; merge applies a JSON Merge Patch', () => {
    expect(run(building, { op: 'set', data: { fresh: true } }).document).toEqual({ fresh: true });
    expect(run(building, { op: 'merge', patch: { name: 'HQ 2', queue: null } }).document).toEqual({
      ...building,
      name: 'HQ 2',
      queue: undefined,
    });
    expect(run(building, { op: 'merge', patch: { queue: null } }).document).not.toHaveProperty('queue');
  });

  it('needs data, and refuses NUL characters and nesting beyond 64 levels', () => {
    expect(refusal(() => run(building, { op: 'set', data: undefined })).key).toBe('datasource.error.invalidAction');
    const nul = refusal(() => run(building, { op: 'merge', patch: { note: 'a\u0000b' } }));
    expect(nul).toMatchObject({ key: 'request.error.nulCharacter', message: expect.stringContaining("'note'") });
    expect(refusal(() => run(building, { op: 'set', data: { ['x\u0000']: 1 } })).key).toBe('request.error.nulCharacter');
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(refusal(() => run(building, { op: 'set', data: deep })).key).toBe('request.error.tooDeep');
  });
});

describe('increase and decrease', () => {
  it('change the value by exactly one', () => {
    const up = run(building, { op: 'increase', keySelector: 'visitors' });
    expect(up.document).toEqual({ ...building, visitors: 5 });
    expect(up.detail).toBe('"visitors": 4 → 5');
    expect(run(building, { op: 'decrease', keySelector: 'rooms.1.seats' }).document).toMatchObject({ rooms: [{ seats: 6 }, { seats: 9 }] });
    expect(run(building, { op: 'increase', keySelector: '$.rooms[?(@.id == "A-101")].seats' }).document).toMatchObject({
      rooms: [{ seats: 7 }, { seats: 10 }],
    });
    expect(run({ ratio: 0.5 }, { op: 'increase', keySelector: 'ratio' }).document).toEqual({ ratio: 1.5 });
  });

  it('start a missing or null value at 0, creating the key', () => {
    expect(run({}, { op: 'increase', keySelector: 'lobby.count' }).document).toEqual({ lobby: { count: 1 } });
    expect(run({ count: null }, { op: 'decrease', keySelector: 'count' }).document).toEqual({ count: -1 });
    expect(run(null, { op: 'increase', keySelector: 'count' }, { structureType: 'CUSTOM', now: NOW }).document).toEqual({ count: 1 });
    // Starting at 0, the bounds still hold.
    expect(run({}, { op: 'increase', keySelector: 'count', minimumValue: 5 }).document).toEqual({ count: 5 });
  });

  it('hold the value within the bounds, and never move it against its direction', () => {
    const atMaximum = run({ count: 10 }, { op: 'increase', keySelector: 'count', maximumValue: 10 });
    expect(atMaximum.document).toEqual({ count: 10 });
    expect(atMaximum.detail).toBe('"count" stays 10 (maximum 10)');
    expect(run({ count: 0 }, { op: 'decrease', keySelector: 'count', minimumValue: 0 }).document).toEqual({ count: 0 });
    expect(run({ count: 9.5 }, { op: 'increase', keySelector: 'count', maximumValue: 10 }).document).toEqual({ count: 10 });
    // Past the bound it moves towards: stays (an increase never lowers); below the minimum: brought up to it.
    expect(run({ count: 20 }, { op: 'increase', keySelector: 'count', maximumValue: 10 }).document).toEqual({ count: 20 });
    expect(run({ count: -5 }, { op: 'increase', keySelector: 'count', minimumValue: 0 }).document).toEqual({ count: 0 });
    expect(run({ count: 20 }, { op: 'decrease', keySelector: 'count', maximumValue: 10 }).document).toEqual({ count: 10 });
    expect(run({ count: 3 }, { op: 'decrease', keySelector: 'count', minimumValue: 0, maximumValue: 10 }).document).toEqual({ count: 2 });
  });

  it.each([
    ['a text', { count: '5' }, 'count', /"count" holds a text, not a number/],
    ['true/false', { count: true }, 'count', /holds true\/false, not a number/],
    ['an object', { count: { n: 1 } }, 'count', /holds an object, not a number/],
    ['a list', { count: [1] }, 'count', /holds a list, not a number/],
  ])('refuse a value that is %s', (_, document, keySelector, message) => {
    const error = refusal(() => run(document, { op: 'increase', keySelector }));
    expect(error.key).toBe('datasource.error.invalidAction');
    expect(error.message).toMatch(message);
  });

  it('refuse bounds that are not numbers or cross, and bad key selectors', () => {
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'visitors', minimumValue: 5, maximumValue: 1 })).message).toBe(
      '"minimumValue" (5) is greater than "maximumValue" (1)',
    );
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'visitors', maximumValue: Number.NaN })).key).toBe(
      'datasource.error.invalidAction',
    );
    expect(refusal(() => run(building, { op: 'increase', keySelector: '' })).message).toMatch(/needs "keySelector"/);
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'rooms..seats' })).key).toBe('datasource.error.invalidKey');
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'rooms.first.seats' })).message).toBe(
      'The key selector "rooms.first.seats": rooms is a list, and "first" is not an index.',
    );
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'name.length' })).key).toBe('datasource.error.invalidKey');
    expect(refusal(() => run(building, { op: 'increase', keySelector: '$.rooms[*].seats' })).message).toMatch(/selects 2 places/);
    expect(refusal(() => run(building, { op: 'increase', keySelector: '$.rooms[?(@.id == "Z")].seats' })).message).toMatch(
      /selects 0 places/,
    );
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'a\u0000b' })).key).toBe('request.error.nulCharacter');
    expect(refusal(() => run(building, { op: 'increase', keySelector: 'x'.repeat(1_001) })).message).toMatch(/at most 1000/);
  });

  it('refuse a key selector that would nest the document deeper than 64 levels', () => {
    const deepKey = Array.from({ length: 100 }, (_, i) => `k${i}`).join('.');
    expect(refusal(() => run({}, { op: 'increase', keySelector: deepKey })).message).toBe(
      'The document would be nested deeper than 64 levels',
    );
  });
});

describe('deleteByKey', () => {
  it('removes a member or a list element; nothing there changes nothing', () => {
    expect(run(building, { op: 'deleteByKey', keySelector: 'visitors' }).document).not.toHaveProperty('visitors');
    expect(run(building, { op: 'deleteByKey', keySelector: 'queue.1' }).document).toMatchObject({ queue: ['a', 'c'] });
    expect(run(building, { op: 'deleteByKey', keySelector: '$.rooms[?(@.name == "Lyra")]' }).document).toMatchObject({
      rooms: [{ id: 'A-101' }],
    });
    const nothing = run(building, { op: 'deleteByKey', keySelector: 'lobby.screen' });
    expect(nothing.document).toBe(building);
    expect(nothing.detail).toBe('nothing at "lobby.screen"');
    expect(run(building, { op: 'deleteByKey', keySelector: 'queue.9' }).document).toBe(building);
  });

  it('keeps the document given untouched, and "__proto__" an ordinary key', () => {
    const snapshot = structuredClone(building);
    run(building, { op: 'deleteByKey', keySelector: 'rooms.0.name' });
    expect(building).toEqual(snapshot);
    const withProto: unknown = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    expect(run(withProto, { op: 'deleteByKey', keySelector: '__proto__.x' }).document).toEqual(JSON.parse('{"__proto__": {}, "y": 2}'));
  });

  it('refuses the whole document and paths through a text', () => {
    expect(refusal(() => run(building, { op: 'deleteByKey', keySelector: '$' })).message).toMatch(/names the whole document/);
    expect(refusal(() => run(building, { op: 'deleteByKey', keySelector: 'name.first' })).key).toBe('datasource.error.invalidKey');
  });
});

describe('array operations', () => {
  const list = ['a', 'b', 'c'];

  it('insert at the end by default, at an index, or counted from the end', () => {
    expect(run(list, { op: 'insertToArray', data: 'd' }, LIST).document).toEqual(['a', 'b', 'c', 'd']);
    expect(run(list, { op: 'insertToArray', data: 'x', index: 0 }, LIST).document).toEqual(['x', 'a', 'b', 'c']);
    expect(run(list, { op: 'insertToArray', data: 'x', index: 3 }, LIST).document).toEqual(['a', 'b', 'c', 'x']);
    expect(run(list, { op: 'insertToArray', data: 'x', index: -1 }, LIST).document).toEqual(['a', 'b', 'c', 'x']);
    expect(run(list, { op: 'insertToArray', data: 'x', index: -2 }, LIST).document).toEqual(['a', 'b', 'x', 'c']);
    expect(run(list, { op: 'insertToArray', data: { n: 1 }, index: -4 }, LIST).document).toEqual([{ n: 1 }, 'a', 'b', 'c']);
    expect(run(building, { op: 'insertToArray', keySelector: 'queue', data: 'd', index: 1 }).document).toMatchObject({
      queue: ['a', 'd', 'b', 'c'],
    });
  });

  it('insert creates a missing or null list at the key, and into an empty document', () => {
    expect(run({}, { op: 'insertToArray', keySelector: 'log', data: 1 }).document).toEqual({ log: [1] });
    expect(run({ log: null }, { op: 'insertToArray', keySelector: 'log', data: 1 }).document).toEqual({ log: [1] });
    expect(run(null, { op: 'insertToArray', data: 1 }, { structureType: 'CUSTOM', now: NOW }).document).toEqual([1]);
  });

  it('remove by index (negative from the end) or every element equal to data', () => {
    expect(run(list, { op: 'removeFromArray', index: 1 }, LIST).document).toEqual(['a', 'c']);
    expect(run(list, { op: 'removeFromArray', index: -1 }, LIST).document).toEqual(['a', 'b']);
    const rooms = [{ id: 1, tags: ['x'] }, { id: 2 }, { tags: ['x'], id: 1 }];
    const removed = run(rooms, { op: 'removeFromArray', data: { id: 1, tags: ['x'] } }, LIST);
    expect(removed.document).toEqual([{ id: 2 }]);
    expect(removed.detail).toBe('2 elements equal to the data removed from the document');
    expect(run(rooms, { op: 'removeFromArray', data: { id: 3 } }, LIST).document).toBe(rooms);
  });

  it('empty and rotate (the first element moves to the end)', () => {
    expect(run(building, { op: 'emptyArray', keySelector: 'queue' }).document).toMatchObject({ queue: [] });
    expect(run(list, { op: 'emptyArray' }, LIST).document).toEqual([]);
    expect(run(list, { op: 'rotateArray' }, LIST).document).toEqual(['b', 'c', 'a']);
    expect(run(building, { op: 'rotateArray', keySelector: '$.queue' }).document).toMatchObject({ queue: ['b', 'c', 'a'] });
    const single = ['only'];
    expect(run(single, { op: 'rotateArray' }, LIST).document).toBe(single);
  });

  it('replace an element, or merge data into an object element', () => {
    expect(
      run(building, { op: 'replaceOrMergeElement', keySelector: 'rooms', index: 1, data: { seats: 12, name: null } }).document,
    ).toMatchObject({
      rooms: [{ name: 'Orion' }, { id: 'B-204', seats: 12 }],
    });
    const merged = run(building, { op: 'replaceOrMergeElement', keySelector: 'rooms', index: -1, data: { seats: 12, name: null } });
    expect(merged.document).toMatchObject({ rooms: [{ id: 'A-101' }, { id: 'B-204', seats: 12 }] });
    expect(merged.document).not.toHaveProperty('rooms.1.name');
    expect(merged.detail).toBe('element 1 of "rooms" merged');
    expect(run(list, { op: 'replaceOrMergeElement', index: 0, data: { n: 1 } }, LIST).document).toEqual([{ n: 1 }, 'b', 'c']);
    expect(run(building, { op: 'replaceOrMergeElement', keySelector: 'rooms', index: 0, data: 'gone' }).document).toMatchObject({
      rooms: ['gone', { id: 'B-204' }],
    });
  });

  it.each<[string, DocumentAction, string]>([
    [
      'insert past the end',
      { op: 'insertToArray', data: 1, index: 4 },
      'Index 4 is outside the document: it has 3 elements, so an element goes in at 0 to 3 (or -4 to -1 from the end)',
    ],
    ['insert before the start', { op: 'insertToArray', data: 1, index: -5 }, 'Index -5 is outside the document'],
    [
      'remove past the end',
      { op: 'removeFromArray', index: 3 },
      'Index 3 is outside the document: it has 3 elements (0 to 2, or -3 to -1 from the end)',
    ],
    ['remove before the start', { op: 'removeFromArray', index: -4 }, 'Index -4 is outside the document'],
    ['a fractional index', { op: 'removeFromArray', index: 1.5 }, 'Index 1.5 is outside'],
    ['an index beyond safe integers', { op: 'replaceOrMergeElement', index: 2 ** 63, data: 1 }, 'is outside'],
    ['replace without an index', { op: 'replaceOrMergeElement', data: 1 }, 'This action needs "index"'],
    ['remove with neither index nor data', { op: 'removeFromArray' }, 'needs either "index"'],
    ['remove with both index and data', { op: 'removeFromArray', index: 0, data: 'a' }, 'needs either "index"'],
  ])('refuse %s', (_, action, message) => {
    const error = refusal(() => run(list, action, LIST));
    expect(error.key).toBe('datasource.error.invalidAction');
    expect(error.message).toContain(message);
  });

  it('refuse an empty list index, a document or key that is no list, and a missing list to change', () => {
    expect(refusal(() => run([], { op: 'removeFromArray', index: 0 }, LIST)).message).toBe(
      'Index 0 is outside the document: the list is empty',
    );
    expect(refusal(() => run(building, { op: 'rotateArray' })).message).toBe(
      'The document is an object, not a list: name the list with "keySelector"',
    );
    expect(refusal(() => run(building, { op: 'emptyArray', keySelector: 'name' })).message).toBe('"name" holds a text, not a list');
    expect(refusal(() => run(building, { op: 'insertToArray', keySelector: 'visitors', data: 1 })).message).toBe(
      '"visitors" holds a number, not a list',
    );
    expect(refusal(() => run(building, { op: 'rotateArray', keySelector: 'lobby' })).message).toBe(
      '"lobby" names nothing: there is no list to rotate',
    );
    expect(refusal(() => run(null, { op: 'emptyArray' }, { structureType: 'CUSTOM', now: NOW })).message).toMatch(/document is empty/);
    expect(refusal(() => run(building, { op: 'rotateArray', keySelector: 'queue.x' })).key).toBe('datasource.error.invalidKey');
  });

  it('refuse data with NUL characters or nested too deep', () => {
    expect(refusal(() => run(list, { op: 'insertToArray', data: 'x\u0000' }, LIST)).key).toBe('request.error.nulCharacter');
    let deep: unknown = {};
    for (let i = 0; i < 70; i++) deep = { deep };
    expect(refusal(() => run(list, { op: 'insertToArray', data: deep }, LIST)).key).toBe('request.error.tooDeep');
    // Each part within the limit, together beyond it.
    let nested: unknown = 1;
    for (let i = 0; i < 60; i++) nested = [nested];
    const deepDocument = { a: { b: { c: { d: { e: [] } } } } };
    expect(refusal(() => run(deepDocument, { op: 'insertToArray', keySelector: 'a.b.c.d.e', data: nested })).message).toMatch(
      /nested deeper than 64 levels/,
    );
  });
});

function capAlert(fields: { identifier: string; sent: string; msgType?: string; references?: string; expires?: string; status?: string }) {
  return `<?xml version="1.0" encoding="UTF-8"?>
  <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
    <identifier>${fields.identifier}</identifier><sender>ops@city.example</sender><sent>${fields.sent}</sent>
    <status>${fields.status ?? 'Actual'}</status><msgType>${fields.msgType ?? 'Alert'}</msgType><scope>Public</scope>
    ${fields.references ? `<references>${fields.references}</references>` : ''}
    <info><event>Heat</event><urgency>Expected</urgency><severity>Moderate</severity><certainty>Likely</certainty>
    ${fields.expires ? `<expires>${fields.expires}</expires>` : ''}<headline>Heat ${fields.identifier}</headline>
    <area><areaDesc>Old Town</areaDesc></area></info></alert>`;
}

describe('CAP alerts', () => {
  const empty = { title: 'Warnings', items: [] };
  const first = run(empty, { op: 'insertCap', data: capAlert({ identifier: 'H-1', sent: '2026-03-16T07:00:00Z' }) }, FEED);

  it('insert an alert into the FEED, keeping the feed’s other members', () => {
    expect(first.document).toMatchObject({
      title: 'Warnings',
      items: [{ id: 'H-1', identifier: 'H-1', msgType: 'Alert', headline: 'Heat H-1' }],
    });
    expect(first.detail).toBe('1 active alert (0 before)');
    const second = run(first.document, { op: 'insertCap', data: capAlert({ identifier: 'H-2', sent: '2026-03-16T07:30:00Z' }) }, FEED);
    expect(itemIds(second.document)).toEqual(['H-2', 'H-1']);
  });

  it('apply Update and Cancel through references, and drop expired alerts', () => {
    const update = capAlert({
      identifier: 'H-1b',
      sent: '2026-03-16T07:45:00Z',
      msgType: 'Update',
      references: 'ops@city.example,H-1,2026-03-16T07:00:00Z',
    });
    const updated = run(first.document, { op: 'insertCap', data: update }, FEED);
    expect(itemIds(updated.document)).toEqual(['H-1b']);
    const cancel = capAlert({
      identifier: 'H-1c',
      sent: '2026-03-16T07:50:00Z',
      msgType: 'Cancel',
      references: 'ops@city.example,H-1b,2026-03-16T07:45:00Z',
    });
    expect(run(updated.document, { op: 'insertCap', data: cancel }, FEED).document).toEqual({ title: 'Warnings', items: [] });
    const expired = capAlert({ identifier: 'H-0', sent: '2026-03-15T07:00:00Z', expires: '2026-03-15T09:00:00Z' });
    expect(run(empty, { op: 'insertCap', data: expired }, FEED).document).toEqual(empty);
    // Only Actual alerts are shown, as a CAP datasource shows them.
    const test = capAlert({ identifier: 'T-1', sent: '2026-03-16T07:00:00Z', status: 'Test' });
    expect(run(empty, { op: 'insertCap', data: test }, FEED).document).toEqual(empty);
  });

  it('clear chosen alerts or all of them', () => {
    const two = run(
      first.document,
      { op: 'insertCap', data: capAlert({ identifier: 'H-2', sent: '2026-03-16T07:30:00Z' }) },
      FEED,
    ).document;
    const cleared = run(two, { op: 'clearCap', capIds: ['H-1', 'unknown'] }, FEED);
    expect(itemIds(cleared.document)).toEqual(['H-2']);
    expect(cleared.detail).toBe('1 alert cleared');
    expect(run(two, { op: 'clearCap', removeAll: true }, FEED).document).toEqual({ title: 'Warnings', items: [] });
    expect(run(two, { op: 'clearCap', capIds: ['nothing'] }, FEED).document).toBe(two);
  });

  it.each<[string, unknown, DocumentAction, { structureType: string; now: number }, RegExp]>([
    [
      'a datasource that is no FEED',
      {},
      { op: 'insertCap', data: capAlert({ identifier: 'X', sent: '2026-03-16T07:00:00Z' }) },
      KEY_VALUE,
      /structure FEED; this one is KEY_VALUE/,
    ],
    [
      'a feed of other items',
      { items: [{ id: 'n', title: 'News' }] },
      { op: 'clearCap', removeAll: true },
      FEED,
      /Item 1 of the feed is not a CAP alert/,
    ],
    [
      'XML that is no CAP alert',
      empty,
      { op: 'insertCap', data: '<rss version="2.0"><channel/></rss>' },
      FEED,
      /^The document holds no CAP alert/,
    ],
    ['text that is no XML', empty, { op: 'insertCap', data: 'hello' }, FEED, /^The document is not valid XML/],
    ['an empty alert', empty, { op: 'insertCap', data: ' ' }, FEED, /needs "data": a CAP 1.2 alert/],
    ['an alert with a NUL', empty, { op: 'insertCap', data: '<alert>\u0000</alert>' }, FEED, /NUL/],
    ['an alert over 1 MiB', empty, { op: 'insertCap', data: `<alert>${'x'.repeat(MAX_CAP_BYTES)}</alert>` }, FEED, /at most 1048576/],
    ['clearing with neither capIds nor removeAll', empty, { op: 'clearCap' }, FEED, /needs "capIds"/],
    // A trigger's payload is untyped JSON: the cast sends what the types rule out.
    ['capIds that are no texts', empty, { op: 'clearCap', capIds: [1 as unknown as string] }, FEED, /must be a list/],
  ])('refuse %s', (_, document, action, options, message) => {
    const error = refusal(() => run(document, action, options));
    expect(error.message).toMatch(message);
  });
});

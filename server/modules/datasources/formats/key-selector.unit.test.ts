import { describe, expect, it } from 'vitest';
import { expectReadable, formatErrorOf } from './formats.test-kit';
import { keySelectorPlace, removeAtPlace, setAtKeySelector, valueAtPlace } from './key-selector';

const building = {
  name: 'HQ',
  rooms: [
    { id: 'A-101', name: 'Orion', isFree: true },
    { id: 'B-204', name: 'Lyra', isFree: false },
    { id: 'C-310', name: 'Vega', isFree: false },
  ],
};

describe('setAtKeySelector: dot paths', () => {
  it('writes a value, a numeric segment indexing an array', () => {
    const written = setAtKeySelector(building, 'rooms.2.name', 'Vega II');
    expect(written).toEqual({ ...building, rooms: [building.rooms[0], building.rooms[1], { ...building.rooms[2], name: 'Vega II' }] });
  });

  it('creates missing objects on the way, and replaces null with one', () => {
    expect(setAtKeySelector({}, 'lobby.screen.message', 'Welcome')).toEqual({ lobby: { screen: { message: 'Welcome' } } });
    expect(setAtKeySelector({ lobby: null }, 'lobby.message', 'Hi')).toEqual({ lobby: { message: 'Hi' } });
    expect(setAtKeySelector(undefined, 'a', 1)).toEqual({ a: 1 });
    // a number names a key where there is no array yet
    expect(setAtKeySelector({}, 'rooms.0.name', 'x')).toEqual({ rooms: { '0': { name: 'x' } } });
  });

  it('appends at the index just past the end of an array, and refuses further', () => {
    expect(setAtKeySelector({ list: [1, 2] }, 'list.2', 3)).toEqual({ list: [1, 2, 3] });
    const error = formatErrorOf(() => setAtKeySelector({ list: [1, 2] }, 'list.5', 3));
    expect(error.message).toBe('The key selector "list.5": index 5 is past the end of list (2 entries).');
    expectReadable(error);
  });

  it.each([
    ['a text', { name: 'HQ' }, 'name.first', 'The key selector "name.first": name is a text, so "first" cannot be written inside it.'],
    ['a list', building, 'rooms.first', 'The key selector "rooms.first": rooms is a list, and "first" is not an index.'],
    ['empty segments', building, 'rooms..name', 'The key selector "rooms..name" has an empty segment (two dots, or a dot at an end).'],
    ['nothing', building, '  ', 'The key selector is empty.'],
  ])('refuses writing through %s', (_, document, selector, message) => {
    expect(formatErrorOf(() => setAtKeySelector(document, selector, 1)).message).toBe(message);
  });

  it('never modifies the document it is given', () => {
    const snapshot = structuredClone(building);
    setAtKeySelector(building, 'rooms.0.isFree', false);
    setAtKeySelector(building, '$.rooms[?(@.id == "B-204")].isFree', true);
    expect(building).toEqual(snapshot);
  });

  it('writes "__proto__" as an ordinary key', () => {
    const written = setAtKeySelector({}, '__proto__.isPolluted', true);
    expect(Object.keys(written as object)).toEqual(['__proto__']);
    expect(Reflect.get({}, 'isPolluted')).toBeUndefined();
  });
});

describe('setAtKeySelector: JSONPath', () => {
  it('writes at a path of names and indexes, creating it like a dot path', () => {
    expect(setAtKeySelector(building, '$.rooms[1].name', 'Lyra II')).toMatchObject({
      rooms: [{ name: 'Orion' }, { name: 'Lyra II' }, { name: 'Vega' }],
    });
    expect(setAtKeySelector({}, "$['lobby']['screen.message']", 'Hi')).toEqual({ lobby: { 'screen.message': 'Hi' } });
    expect(setAtKeySelector({ a: 1 }, '$', { replaced: true })).toEqual({ replaced: true });
  });

  it('writes at the one place a filter selects', () => {
    const written = setAtKeySelector(building, '$.rooms[?(@.id == "B-204")].isFree', true);
    expect(written).toMatchObject({ rooms: [{ isFree: true }, { id: 'B-204', isFree: true }, { isFree: false }] });
    expect(setAtKeySelector(building, '$..rooms[?(@.name == "Vega")].name', 'Vega II')).toMatchObject({
      rooms: [{}, {}, { name: 'Vega II' }],
    });
  });

  it('refuses a JSONPath that selects several places or none', () => {
    expect(formatErrorOf(() => setAtKeySelector(building, '$.rooms[?(@.isFree == false)].isFree', true)).message).toBe(
      'The key selector "$.rooms[?(@.isFree == false)].isFree" selects 2 places; it must select exactly one.',
    );
    expect(formatErrorOf(() => setAtKeySelector(building, '$.rooms[*].name', 'x')).message).toMatch(/selects 3 places/);
    expect(formatErrorOf(() => setAtKeySelector(building, '$.rooms[?(@.id == "Z")].name', 'x')).message).toMatch(/selects 0 places/);
  });
});

describe('the places of key selectors (webhook actions)', () => {
  it('names a place by its segments, existing or not', () => {
    expect(keySelectorPlace(building, 'rooms.2.name')).toEqual(['rooms', '2', 'name']);
    expect(keySelectorPlace(building, '$.rooms[?(@.id == "B-204")]')).toEqual(['rooms', '1']);
    expect(keySelectorPlace(building, '$')).toEqual([]);
    expect(keySelectorPlace({}, 'lobby.message')).toEqual(['lobby', 'message']);
  });

  it('reads what is there, or that nothing is', () => {
    expect(valueAtPlace(building, ['rooms', '1', 'name'], 'rooms.1.name')).toEqual({ isPresent: true, value: 'Lyra' });
    expect(valueAtPlace(building, [], '$')).toEqual({ isPresent: true, value: building });
    expect(valueAtPlace(building, ['rooms', '3'], 'rooms.3')).toEqual({ isPresent: false, value: undefined });
    expect(valueAtPlace({ a: null }, ['a', 'b'], 'a.b')).toEqual({ isPresent: false, value: undefined });
    // An inherited member is no member of the document.
    expect(valueAtPlace({}, ['constructor'], 'constructor')).toEqual({ isPresent: false, value: undefined });
    expect(formatErrorOf(() => valueAtPlace(building, ['name', 'first'], 'name.first')).message).toBe(
      'The key selector "name.first": name is a text, so "first" cannot be inside it.',
    );
  });

  it('removes a member or an element, answering the same document when nothing is there', () => {
    expect(removeAtPlace(building, ['rooms', '0'], 'rooms.0')).toEqual({ ...building, rooms: [building.rooms[1], building.rooms[2]] });
    expect(removeAtPlace(building, ['name'], 'name')).toEqual({ rooms: building.rooms });
    expect(removeAtPlace(building, ['lobby', 'screen'], 'lobby.screen')).toBe(building);
    expect(removeAtPlace(building, ['rooms', '7', 'name'], 'rooms.7.name')).toBe(building);
    expect(formatErrorOf(() => removeAtPlace(building, [], '$')).message).toBe(
      'The key selector "$" names the whole document, not a key in it.',
    );
  });
});

import { ValidationError } from '@/server/errors';
import { assertNoNul, assertSafeJson, MAX_JSON_DEPTH, nestingDepth } from '@/server/http/hostile-input';
import {
  documentHash,
  FormatError,
  isPlainObject,
  keySelectorPlace,
  mergePatch,
  parseCap,
  removeAtPlace,
  setAtPlace,
  valueAtPlace,
  type CapAlertItem,
} from './formats';

/*
 * What the webhook actions of spec 3 "Webhook action" do to an internal datasource's document (spec 5 §2 "Internal
 * data"), as pure functions: no database, no clock (`now` is given). The service (datasource-actions.ts) reads the
 * document with the row locked, applies one of these and stores the result through storeDocument. The rules the
 * spec leaves open are in README.md "Decisions" (webhook datasource actions).
 */

/** The document operations of the datasource webhook actions (REFRESH is no document operation). */
export type DocumentAction =
  | { op: 'set'; data: unknown }
  | { op: 'merge'; patch: unknown }
  | { op: 'increase' | 'decrease'; keySelector: string; minimumValue?: number; maximumValue?: number }
  | { op: 'insertCap'; data: string }
  | { op: 'clearCap'; capIds?: string[]; removeAll?: boolean }
  | { op: 'deleteByKey'; keySelector: string }
  | { op: 'insertToArray'; keySelector?: string; data: unknown; index?: number }
  | { op: 'removeFromArray'; keySelector?: string; index?: number; data?: unknown }
  | { op: 'emptyArray'; keySelector?: string }
  | { op: 'rotateArray'; keySelector?: string }
  | { op: 'replaceOrMergeElement'; keySelector?: string; index?: number; data: unknown };

/** The document afterwards and what happened, in words (the execution's `detail`). */
export type DocumentActionResult = { document: unknown; detail: string };

/** 400 for parameters that do not fit the document (not a number, not a list, an index outside it, a bad CAP alert). */
const INVALID_ACTION = 'datasource.error.invalidAction';
/** The most bytes of CAP XML one INSERT_CAP takes: the document it lands in holds at most 1 MiB too. */
export const MAX_CAP_BYTES = 1024 * 1024;
const MAX_KEY_SELECTOR = 1_000;

function invalid(message: string, details?: Record<string, unknown>): never {
  throw new ValidationError(INVALID_ACTION, message, details);
}

/**
 * Applies one document operation. `structureType` is the datasource's (CAP operations need a FEED); the structure of
 * the result is checked where it is stored. Throws ValidationError: `datasource.error.invalidKey` for a key selector
 * that names no single place, `datasource.error.invalidAction` for parameters that do not fit the document,
 * `request.error.nulCharacter` / `request.error.tooDeep` for NUL characters and nesting beyond 64 levels.
 */
export function applyDocumentAction(
  document: unknown,
  action: DocumentAction,
  options: { structureType: string; now: number },
): DocumentActionResult {
  const result = apply(document, action, options);
  // A key selector can reach deeper than any body may be (a long dot path, data inserted far down): such a document
  // could not be written back with PUT /data, and recursive readers must never meet one.
  if (result.document !== document && nestingDepth(result.document, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    invalid(`The document would be nested deeper than ${MAX_JSON_DEPTH} levels`, { maxDepth: MAX_JSON_DEPTH });

  return result;
}

function apply(document: unknown, action: DocumentAction, options: { structureType: string; now: number }): DocumentActionResult {
  switch (action.op) {
    case 'set':
      return { document: jsonInput('data', action.data), detail: 'document replaced' };
    case 'merge':
      return { document: mergePatch(document, jsonInput('data', action.patch)), detail: 'data merged' };
    case 'increase':
    case 'decrease':
      return step(document, action);
    case 'deleteByKey':
      return deleteByKey(document, action.keySelector);
    case 'insertToArray':
      return insertToArray(document, action);
    case 'removeFromArray':
      return removeFromArray(document, action);
    case 'emptyArray':
      return changeList(document, action.keySelector, 'empty', (list, name) => ({
        list: [],
        detail: `${name} emptied (${count(list.length, 'element')} removed)`,
      }));
    case 'rotateArray':
      return changeList(document, action.keySelector, 'rotate', (list, name) => ({
        list: list.length < 2 ? list : [...list.slice(1), list[0]],
        detail: `${name} rotated (${count(list.length, 'element')})`,
      }));
    case 'replaceOrMergeElement':
      return replaceOrMergeElement(document, action);
    case 'insertCap':
      return insertCap(document, action.data, options);
    case 'clearCap':
      return clearCap(document, action, options.structureType);
  }
}

/** A JSON value from the trigger: present, no NUL, at most 64 levels deep. */
function jsonInput(name: string, value: unknown): unknown {
  if (value === undefined) invalid(`This action needs "${name}": a JSON value`, { parameter: name });
  assertSafeJson(name, value);

  return value;
}

/** The trigger's key selector, its place in the document and how messages name it. */
function placeOf(document: unknown, keySelector: unknown): { place: string[]; name: string; selector: string } {
  if (typeof keySelector !== 'string' || keySelector.trim() === '')
    invalid('This action needs "keySelector": a dot path (rooms.2.name) or a JSONPath starting with $', { parameter: 'keySelector' });
  assertNoNul('keySelector', keySelector);
  if (keySelector.length > MAX_KEY_SELECTOR)
    invalid(`The key selector has ${keySelector.length} characters; at most ${MAX_KEY_SELECTOR} are allowed`, { parameter: 'keySelector' });
  const selector = keySelector.trim();

  return { place: keyErrors(() => keySelectorPlace(document, selector)), name: `"${clip(selector)}"`, selector };
}

/** Key selector problems (FormatError of key-selector.ts) as 400 `datasource.error.invalidKey`, as `set` answers them. */
function keyErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof FormatError) throw new ValidationError('datasource.error.invalidKey', err.message);
    throw err;
  }
}

function bound(name: 'minimumValue' | 'maximumValue', value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(`"${name}" must be a number`, { parameter: name });

  return value;
}

/**
 * INCREASE / DECREASE: the value at the key changes by exactly one (spec 3), then is held within the bounds. A
 * missing or null value counts as 0. An increase never lowers the value and a decrease never raises it: a value
 * already past the bound it moves towards stays as it is.
 */
function step(
  document: unknown,
  action: { op: 'increase' | 'decrease'; keySelector: string; minimumValue?: number; maximumValue?: number },
): DocumentActionResult {
  const minimum = bound('minimumValue', action.minimumValue);
  const maximum = bound('maximumValue', action.maximumValue);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum)
    invalid(`"minimumValue" (${minimum}) is greater than "maximumValue" (${maximum})`, { minimumValue: minimum, maximumValue: maximum });
  const { place, name, selector } = placeOf(document, action.keySelector);
  const { isPresent, value } = keyErrors(() => valueAtPlace(document, place, selector));
  const current = !isPresent || value === null ? 0 : value;
  if (typeof current !== 'number')
    invalid(`${name} holds ${kindOf(current)}, not a number, so it cannot be ${action.op}d`, { keySelector: selector });
  const isIncrease = action.op === 'increase';
  const moved = Math.min(maximum ?? Infinity, Math.max(minimum ?? -Infinity, current + (isIncrease ? 1 : -1)));
  const next = isIncrease ? Math.max(current, moved) : Math.min(current, moved);
  if (isPresent && next === current) {
    const limit = isIncrease ? maximum : minimum;

    return {
      document,
      detail: `${name} stays ${current}${limit === undefined ? '' : ` (${isIncrease ? 'maximum' : 'minimum'} ${limit})`}`,
    };
  }

  return {
    document: keyErrors(() => setAtPlace(document, place, next, selector)),
    detail: `${name}: ${isPresent ? current : 'none'} → ${next}`,
  };
}

/** DELETE_BY_KEY: the member (or list element) at the key is removed; nothing there changes nothing. */
function deleteByKey(document: unknown, keySelector: string): DocumentActionResult {
  const { place, name, selector } = placeOf(document, keySelector);
  if (place.length === 0) invalid(`${name} names the whole document; use SET_INTERNAL_DATASOURCE to replace it`, { keySelector: selector });
  const after = keyErrors(() => removeAtPlace(document, place, selector));

  return { document: after, detail: after === document ? `nothing at ${name}` : `${name} deleted` };
}

type ListChange = { list: unknown[]; detail: string };

/**
 * The list an array operation works on: at `keySelector`, or the document itself without one (then it must be a
 * list: a LIST datasource). `change` gets the list (empty when the place holds nothing, if `isCreating`) and answers
 * the new one, written back at the same place.
 */
function changeList(
  document: unknown,
  keySelector: unknown,
  verb: string,
  change: (list: unknown[], name: string) => ListChange,
  options: { isCreating?: boolean } = {},
): DocumentActionResult {
  const { place, name, selector } =
    keySelector === undefined || keySelector === null ? { place: [], name: 'the document', selector: '$' } : placeOf(document, keySelector);
  const { isPresent, value } = keyErrors(() => valueAtPlace(document, place, selector));
  const isMissing = !isPresent || value === null;
  if (isMissing && !options.isCreating)
    invalid(
      place.length === 0 ? `The document is empty: there is no list to ${verb}` : `${name} names nothing: there is no list to ${verb}`,
      { keySelector: selector },
    );
  const list = isMissing ? [] : value;
  if (!Array.isArray(list))
    invalid(
      place.length === 0
        ? `The document is ${kindOf(list)}, not a list: name the list with "keySelector"`
        : `${name} holds ${kindOf(list)}, not a list`,
      { keySelector: selector },
    );
  const { list: changed, detail } = change(list, name);
  if (changed === list) return { document, detail };

  return { document: keyErrors(() => setAtPlace(document, place, changed, selector)), detail };
}

/**
 * An index into a list of `length` elements: 0 the first, negative from the end (-1 the last). Outside the list
 * (or not a whole number) is a 400 naming the valid range.
 */
function elementIndex(index: unknown, length: number, name: string): number {
  if (index === undefined || index === null)
    invalid('This action needs "index": the position of the element in the list', { parameter: 'index' });
  const position = typeof index === 'number' && Number.isSafeInteger(index) ? (index < 0 ? length + index : index) : -1;
  if (position < 0 || position >= length)
    invalid(
      length === 0
        ? `Index ${String(index)} is outside ${name}: the list is empty`
        : `Index ${String(index)} is outside ${name}: it has ${count(length, 'element')} (0 to ${length - 1}, or -${length} to -1 from the end)`,
      { index: typeof index === 'number' ? index : String(index), length },
    );

  return position;
}

/**
 * INSERT_TO_ARRAY: `data` goes in before the element at `index` (0 first; the length, or no index, appends; negative
 * counts from the end, -1 appending). A missing or null list at the key is created.
 */
function insertToArray(document: unknown, action: { keySelector?: string; data: unknown; index?: number }): DocumentActionResult {
  const element = jsonInput('data', action.data);

  return changeList(
    document,
    action.keySelector,
    'insert into',
    (list, name) => {
      const { index } = action;
      let position = list.length;
      if (index !== undefined && index !== null) {
        position = typeof index === 'number' && Number.isSafeInteger(index) ? (index < 0 ? list.length + 1 + index : index) : -1;
        if (position < 0 || position > list.length)
          invalid(
            `Index ${String(index)} is outside ${name}: it has ${count(list.length, 'element')}, so an element goes in at 0 to ${list.length} (or -${list.length + 1} to -1 from the end)`,
            { index: typeof index === 'number' ? index : String(index), length: list.length },
          );
      }

      return { list: [...list.slice(0, position), element, ...list.slice(position)], detail: `inserted at ${position} of ${name}` };
    },
    { isCreating: true },
  );
}

/** REMOVE_FROM_ARRAY: the element at `index`, or every element equal to `data` (compared as JSON); one of the two. */
function removeFromArray(document: unknown, action: { keySelector?: string; index?: number; data?: unknown }): DocumentActionResult {
  const hasIndex = action.index !== undefined && action.index !== null;
  const hasData = action.data !== undefined;
  if (hasIndex === hasData)
    invalid('This action needs either "index" (the element at that position) or "data" (the elements equal to it), not both', {
      parameters: ['index', 'data'],
    });
  const wanted = hasData ? documentHash(jsonInput('data', action.data)) : undefined;

  return changeList(document, action.keySelector, 'remove from', (list, name) => {
    if (wanted === undefined) {
      const position = elementIndex(action.index, list.length, name);

      return { list: list.filter((_, i) => i !== position), detail: `element ${position} of ${name} removed` };
    }
    const kept = list.filter((element) => documentHash(element) !== wanted);
    const removed = list.length - kept.length;

    return { list: removed === 0 ? list : kept, detail: `${count(removed, 'element')} equal to the data removed from ${name}` };
  });
}

/** REPLACE_OR_MERGE_ELEMENT: an object element takes `data` as a JSON Merge Patch; any other element is replaced by it. */
function replaceOrMergeElement(document: unknown, action: { keySelector?: string; index?: number; data: unknown }): DocumentActionResult {
  const data = jsonInput('data', action.data);

  return changeList(document, action.keySelector, 'change', (list, name) => {
    const position = elementIndex(action.index, list.length, name);
    const element = list[position];
    const isMerged = isPlainObject(element) && isPlainObject(data);
    const changed = isMerged ? mergePatch(element, data) : data;

    return {
      list: list.map((entry, i) => (i === position ? changed : entry)),
      detail: `element ${position} of ${name} ${isMerged ? 'merged' : 'replaced'}`,
    };
  });
}

/** The CAP alerts of a FEED document; anything else there is refused rather than lost. */
function capFeed(document: unknown, structureType: string, verb: string): { items: CapAlertItem[] } {
  if (structureType !== 'FEED')
    invalid(`CAP alerts are ${verb} a datasource of structure FEED; this one is ${structureType}`, { structureType });
  const items: unknown = isPlainObject(document) ? document.items : undefined;
  if (!Array.isArray(items)) invalid('The document is not a feed: it has no "items" list');
  const other = items.findIndex((item) => !isCapAlert(item));
  if (other !== -1)
    invalid(`Item ${other + 1} of the feed is not a CAP alert (it lacks identifier, sender or sent), so the feed is not a CAP feed`, {
      item: other + 1,
    });

  return { items: items.filter(isCapAlert) };
}

function isCapAlert(item: unknown): item is CapAlertItem {
  return (
    isPlainObject(item) &&
    typeof item.id === 'string' &&
    typeof item.title === 'string' &&
    typeof item.identifier === 'string' &&
    typeof item.sender === 'string' &&
    typeof item.sent === 'string'
  );
}

/**
 * INSERT_CAP: the alert is read as a CAP refresh reads its remote, with the stored alerts as what was known: an
 * Update or Cancel removes the alerts its `references` name, expired alerts drop out, only `Actual` alerts are shown.
 * A feed of alerts only adds its alerts (a webhook never lists every active one). The feed's `title` and `link` stay.
 */
function insertCap(document: unknown, data: unknown, options: { structureType: string; now: number }): DocumentActionResult {
  const previous = capFeed(document, options.structureType, 'inserted into');
  if (typeof data !== 'string' || data.trim() === '') invalid('This action needs "data": a CAP 1.2 alert as XML', { parameter: 'data' });
  assertNoNul('data', data);
  const body = Buffer.from(data, 'utf8');
  if (body.length > MAX_CAP_BYTES)
    invalid(`The CAP alert has ${body.length} bytes; at most ${MAX_CAP_BYTES} are taken`, { size: body.length, limit: MAX_CAP_BYTES });
  let items: CapAlertItem[];
  try {
    items = parseCap(body, { previous, now: options.now, isUpdateOnly: true }).items.filter(isCapAlert);
  } catch (err) {
    if (err instanceof FormatError) invalid(err.message.replace(/\.$/, ''));
    throw err;
  }

  return {
    document: { ...(isPlainObject(document) ? document : {}), items },
    detail: `${count(items.length, 'active alert')} (${previous.items.length} before)`,
  };
}

/** CLEAR_CAP: every alert (`removeAll`), or those whose identifier is in `capIds`. */
function clearCap(document: unknown, action: { capIds?: string[]; removeAll?: boolean }, structureType: string): DocumentActionResult {
  const { items } = capFeed(document, structureType, 'cleared from');
  const { capIds, removeAll } = action;
  if (removeAll !== undefined && removeAll !== null && typeof removeAll !== 'boolean') invalid('"removeAll" must be true or false');
  const hasIds = Array.isArray(capIds) && capIds.length > 0;
  if (capIds !== undefined && capIds !== null && !(Array.isArray(capIds) && capIds.every((id) => typeof id === 'string')))
    invalid('"capIds" must be a list of CAP alert identifiers', { parameter: 'capIds' });
  if (removeAll !== true && !hasIds) invalid('This action needs "capIds" (the alerts to clear) or "removeAll": true');
  const cleared = new Set(removeAll === true ? items.map((item) => item.identifier) : capIds);
  const kept = items.filter((item) => !cleared.has(item.identifier));
  const removed = items.length - kept.length;

  return {
    document: removed === 0 ? document : { ...(isPlainObject(document) ? document : {}), items: kept },
    detail: `${count(removed, 'alert')} cleared`,
  };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a text';
  if (typeof value === 'boolean') return 'true/false';
  if (typeof value === 'number') return 'a number';

  return 'an object';
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

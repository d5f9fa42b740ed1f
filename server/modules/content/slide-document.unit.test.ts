import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlideDocument, type SlideData } from './content-data.schemas';
import { isArrayIndexName } from './page-names.schemas';
import { contentDataToWire, slideDataOf, slideDocumentOf } from './slide-document.schemas';

/** Names JavaScript keeps in insertion order: anything but an array index (and `__proto__`, refused). */
const pageName = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.nat().map(String),
    fc.constantFrom('Default', 'Home', '01', '-1', '1.5', '4294967295', ' 2'),
  )
  .filter((name) => !isArrayIndexName(name) && name !== '__proto__');

/** JSON values without `__proto__` keys (which no JavaScript reader keeps as data). */
const json = fc.jsonValue({ maxDepth: 3 }).filter((value) => !JSON.stringify(value).includes('"__proto__"'));

const KNOWN = new Set(['tags', 'pageStyle', 'pageData', 'widgets', 'name', '__proto__']);
const screenSize = fc.record({ width: fc.integer({ min: 1, max: 16_384 }), height: fc.integer({ min: 1, max: 16_384 }) });

/** A page as a client may send it: the screen size, optional known fields, and keys the server does not know. */
const page = fc
  .tuple(
    screenSize,
    fc.option(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), { nil: undefined }),
    fc.option(fc.record({ backgroundColor: fc.constantFrom('#000', '#112233') }, { requiredKeys: [] }), { nil: undefined }),
    fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !KNOWN.has(k)),
      json,
      { maxKeys: 3 },
    ),
  )
  .map(([size, tags, pageStyle, unknown]) => ({
    ...unknown,
    pageData: { screenSize: size },
    ...(tags ? { tags } : {}),
    ...(pageStyle ? { pageStyle } : {}),
  }));

const document = fc
  .uniqueArray(fc.tuple(pageName, page), { minLength: 1, maxLength: 8, selector: ([name]) => name })
  .map((entries) => Object.fromEntries(entries));

describe('the keyed form and the page list', () => {
  it('isArrayIndexName is exactly the names a JavaScript object moves to the front', () => {
    const candidates = fc.oneof(
      fc.string({ maxLength: 11 }),
      fc.bigInt({ min: 0n, max: 2n ** 33n }).map(String),
      fc.constantFrom('0', '00', '-0', '4294967294', '4294967295', '1e3', '+1', '١'),
    );
    fc.assert(
      fc.property(candidates, (name) => {
        fc.pre(name !== 'x' && name !== '__proto__');
        const object = JSON.parse(`{"x":0,${JSON.stringify(name)}:1}`) as Record<string, number>;

        expect(isArrayIndexName(name)).toBe(Object.keys(object)[0] === name);
      }),
      { numRuns: 2_000 },
    );
  });

  it('document → list → document is the identity, key order included, also through JSON', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const list = slideDataOf(doc as never);
        expect(list.pages.map((p) => p.name)).toEqual(Object.keys(doc));
        const back = slideDocumentOf(list);
        expect(back).toEqual(doc);
        expect(Object.keys(back)).toEqual(Object.keys(doc));
        const wire = JSON.parse(JSON.stringify(back)) as typeof back;
        expect(slideDataOf(wire)).toEqual(JSON.parse(JSON.stringify(list)));
      }),
    );
  });

  it('list → document → list is the identity', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const list: SlideData = slideDataOf(doc as never);

        expect(slideDataOf(slideDocumentOf(list))).toEqual(list);
      }),
    );
  });

  it('the schema accepts such a document and answers it as sent: unknown keys kept, nothing filled in', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const parsed = SlideDocument.safeParse(doc);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(parsed.data).toEqual(doc);
        expect(Object.keys(parsed.data!)).toEqual(Object.keys(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('contentDataToWire keys a stored slide and leaves a playlist alone', () => {
    const stored: SlideData = { pages: [{ name: 'Default', pageData: { screenSize: { width: 1920, height: 1080 } } }] };
    expect(contentDataToWire(stored)).toEqual({ Default: { pageData: { screenSize: { width: 1920, height: 1080 } } } });
    const playlist = { loopData: { resolution: { width: 1, height: 1 } }, slides: [] };
    expect(contentDataToWire(playlist)).toBe(playlist);
    expect(contentDataToWire(null)).toBeNull();
  });
});

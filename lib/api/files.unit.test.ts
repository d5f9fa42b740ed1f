import { describe, expect, it } from 'vitest';
import { FILE_TYPES, fileSearch, filterExpr, idsSearch, quickFilterView, textExpr, type FileFilters } from './files';

const FOLDER = '01a207c4-1a7d-755d-a115-6d0f773b0044';

describe('file list search (plain words and filters → query language)', () => {
  it('matches each word in the name (ignoring case) or as a tag, within the folder', () => {
    expect(textExpr('summer  Sale')?.text).toBe('name~summer|tags:summer,name~Sale|tags:Sale');
    expect(fileSearch({ folderId: FOLDER, text: 'summer' })).toBe(`fileFolderId=${FOLDER},name~summer|tags:summer`);
    expect(fileSearch({ folderId: FOLDER, recursive: true })).toBe(`fileFolderPath:${FOLDER}`);
  });

  it('turns type, orientation, tags and validity into terms', () => {
    const now = 1_800_000_000_000;
    expect(fileSearch({ type: 'video', orientation: 'portrait', tags: ['a', 'b'] }, now)).toBe(
      'contentType^video%2F,orientation=portrait,tags∈a%2Cb',
    );
    expect(fileSearch({ validity: 'expired' }, now)).toBe(`validTo<${now}`);
    expect(fileSearch({ validity: 'valid' }, now)).toBe(`validFrom=NULL|validFrom≤${now},validTo=NULL|validTo≥${now}`);
    expect(fileSearch({})).toBeUndefined();
  });

  it('escapes the language characters in typed words', () => {
    expect(textExpr('a,b(c)')?.text).toBe('name~a%2Cb%28c%29|tags:a%2Cb%28c%29');
  });

  it('selects exactly the given ids for bulk calls', () => {
    expect(idsSearch(['x', 'y'])).toBe('id∈x%2Cy');
  });
});

describe('quick filter criteria → the media library controls', () => {
  const now = 1_800_000_000_000;

  it('decodes every search the library saves back into its controls', () => {
    const filters: FileFilters = { text: 'summer sale', type: 'video', orientation: 'portrait', tags: ['a', 'b#1'], validity: 'expired' };
    const search = filterExpr(filters, now)!.text;
    expect(quickFilterView({ type: 'FILE', search, folderId: FOLDER, searchRecursively: true })).toEqual({
      filters: { text: 'summer sale', type: 'video', orientation: 'portrait', tags: ['a', 'b#1'], validity: 'expired' },
      folderId: FOLDER,
      recursive: true,
      other: [],
    });
    for (const type of FILE_TYPES.map((t) => t.value))
      expect(quickFilterView({ type: 'FILE', search: filterExpr({ type }, now)!.text }).filters).toEqual({ type });
    expect(quickFilterView({ type: 'FILE', search: filterExpr({ validity: 'upcoming' }, now)!.text }).filters).toEqual({
      validity: 'upcoming',
    });
    expect(quickFilterView({ type: 'FILE', search: filterExpr({ validity: 'unlimited' }, now)!.text }).filters).toEqual({
      validity: 'unlimited',
    });
    expect(quickFilterView({ type: 'FILE', search: filterExpr({ text: 'a|b (c)' }, now)!.text }).filters).toEqual({ text: 'a|b (c)' });
  });

  it('shows "valid now" and the criteria tags; keeps what no control shows as text', () => {
    expect(quickFilterView({ type: 'FILE', tags: ['x'], validFileOnly: true, isUndefinedValidityValid: true })).toMatchObject({
      filters: { tags: ['x'], validity: 'valid' },
      other: [],
    });
    expect(quickFilterView({ type: 'FILE', search: 'size>100,name:x', name: 'promo' })).toEqual({
      filters: {},
      folderId: undefined,
      recursive: false,
      other: [
        { kind: 'search', text: 'size>100' },
        { kind: 'search', text: 'name:x' },
        { kind: 'nameContains', name: 'promo' },
      ],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { fileSearch, idsSearch, textExpr } from './files';

const FOLDER = '01a207c4-1a7d-755d-a115-6d0f773b0044';

describe('file list search (plain words and filters → query language)', () => {
  it('matches each word in the name (ignoring case) or as a tag, within the folder', () => {
    expect(textExpr('summer  Sale')?.text).toBe('name~summer|tags:summer,name~Sale|tags:Sale');
    expect(fileSearch({ folderId: FOLDER, text: 'summer' })).toBe(`fileFolderId=${FOLDER},name~summer|tags:summer`);
    expect(fileSearch({ folderId: FOLDER, recursive: true })).toBe(`fileFolderPath:${FOLDER}`);
  });

  it('turns type, orientation, tags and validity into terms', () => {
    const now = 1_800_000_000_000;
    expect(fileSearch({ type: 'video', orientation: 'portrait', tags: ['a', 'b'] }, now)).toBe('contentType^video%2F,orientation=portrait,tags∈a%2Cb');
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

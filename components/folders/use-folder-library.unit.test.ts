import { describe, expect, it } from 'vitest';
import {
  currentFolderId,
  folderLibraryFilters,
  folderParamOf,
  NO_SELECTION,
  selectionReducer,
  type Selection,
  type SelectionAction,
} from './use-folder-library';

const PAGE = ['a', 'b', 'c', 'd', 'e'];
const run = (actions: SelectionAction[], from: Selection = selectionReducer(NO_SELECTION, { type: 'show', key: 'k' })) =>
  actions.reduce(selectionReducer, from);
const click = (id: string, range = false, pageIds = PAGE): SelectionAction => ({ type: 'toggle', id, range, pageIds });
const ids = (s: Selection) => [...s.ids].sort();

describe('the folder library selection', () => {
  it('toggles one item per click', () => {
    expect(ids(run([click('b'), click('d')]))).toEqual(['b', 'd']);
    expect(ids(run([click('b'), click('d'), click('b')]))).toEqual(['d']);
  });

  it('adds the range from the previous click with shift, either way, and keeps what was picked outside it', () => {
    expect(ids(run([click('b'), click('d', true)]))).toEqual(['b', 'c', 'd']);
    expect(ids(run([click('d'), click('b', true)]))).toEqual(['b', 'c', 'd']);
    expect(ids(run([click('a'), click('c'), click('e', true)]))).toEqual(['a', 'c', 'd', 'e']);
    // A range adds: shift-clicking over picked items does not unpick them.
    expect(ids(run([click('b'), click('c'), click('b'), click('d', true)]))).toEqual(['b', 'c', 'd']);
  });

  it('takes a shift-click without a previous click on the page as a plain click', () => {
    expect(ids(run([click('c', true)]))).toEqual(['c']);
    // The previous click's item is no longer on the page (another page was read).
    expect(ids(run([click('a'), click('d', true, ['x', 'd', 'y'])]))).toEqual(['a', 'd']);
  });

  it('selects the whole page, and none', () => {
    expect(ids(run([click('a'), { type: 'all', ids: PAGE, select: true }]))).toEqual(PAGE);
    expect(
      ids(
        run([
          { type: 'all', ids: PAGE, select: true },
          { type: 'all', ids: PAGE, select: false },
        ]),
      ),
    ).toEqual([]);
    expect(ids(run([click('a'), click('b'), { type: 'clear' }]))).toEqual([]);
  });

  it('starts a range after "select all" from the next click, not from an item of the old anchor', () => {
    expect(ids(run([click('a'), { type: 'all', ids: [], select: false }, click('c', true)]))).toEqual(['c']);
  });

  it('drops the selection when the list shows another folder, filter or page, and it stays dropped on coming back', () => {
    const picked = run([click('a'), click('c', true)]);
    expect(ids(picked)).toEqual(['a', 'b', 'c']);
    const elsewhere = selectionReducer(picked, { type: 'show', key: 'other' });
    expect(ids(elsewhere)).toEqual([]);
    const back = selectionReducer(elsewhere, { type: 'show', key: 'k' });
    expect(ids(back)).toEqual([]);
    // No range from an anchor of the other list.
    expect(ids(selectionReducer(back, click('e', true)))).toEqual(['e']);
  });

  it('keeps the selection while the list shows the same thing', () => {
    const picked = run([click('a')]);
    expect(selectionReducer(picked, { type: 'show', key: 'k' })).toBe(picked);
  });
});

describe('the folder library folder', () => {
  it('shows the root while the URL names no folder, and writes no folder for the root', () => {
    expect(currentFolderId(null, 'root')).toBe('root');
    expect(currentFolderId('', 'root')).toBe('root');
    expect(currentFolderId('f1', 'root')).toBe('f1');
    expect(currentFolderId(null, undefined)).toBeUndefined();
    expect(folderParamOf('root', 'root')).toBeNull();
    expect(folderParamOf('f1', 'root')).toBe('f1');
  });

  it('reads the folder and the view from the URL, the first view being the default one left out of it', () => {
    const { folder, view } = folderLibraryFilters(['table', 'grid']);
    expect(folder.parse('not-an-id')).toBe('');
    expect(folder.parse('0b7a2c4e-0000-4000-8000-000000000001')).toBe('0b7a2c4e-0000-4000-8000-000000000001');
    expect(view.parse(null)).toBe('table');
    expect(view.parse('grid')).toBe('grid');
    expect(view.format('table')).toBeNull();
    expect(folderLibraryFilters(['grid', 'table']).view.parse(null)).toBe('grid');
  });
});

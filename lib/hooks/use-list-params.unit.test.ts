import { describe, expect, it } from 'vitest';
import { choiceFilter, patternFilter, readListParams, writeListParams, type SortState } from '@/lib/hooks/use-list-params';

const defaultSort: SortState = { field: 'name', direction: 'asc' };
const sortable = ['name', 'createdDate'];
const filters = { from: patternFilter('from', /^\d{4}-\d{2}-\d{2}$/), view: choiceFilter('view', ['grid', 'table']) };
const read = (query: string) => readListParams(new URLSearchParams(query), { defaultSort, sortable, filters });

describe('list state in the URL', () => {
  it('reads paging, sort, search and the list’s own filters, falling back to defaults for bad values', () => {
    expect(read('page=2&size=50&sort=createdDate,desc&q=ops&from=2026-01-02&view=table')).toEqual({
      page: 2,
      size: 50,
      sort: { field: 'createdDate', direction: 'desc' },
      text: 'ops',
      from: '2026-01-02',
      view: 'table',
    });
    expect(read('page=-1&size=7&sort=password,asc&from=yesterday&view=list')).toEqual({
      page: 0,
      size: 20,
      sort: defaultSort,
      text: '',
      from: '',
      view: 'grid',
    });
  });

  it('writes a change, leaving defaults out and keeping unrelated parameters; any change but the page goes back to page one', () => {
    const current = new URLSearchParams('page=3&tenant=x&view=table');
    const params = readListParams(current, { defaultSort, sortable, filters });
    expect(writeListParams(current, params, { from: '2026-02-03' }, { defaultSort, filters }).toString()).toBe(
      'tenant=x&view=table&from=2026-02-03',
    );
    expect(writeListParams(current, params, { page: 4 }, { defaultSort, filters }).toString()).toBe('page=4&tenant=x&view=table');
    expect(
      writeListParams(
        current,
        params,
        { view: 'grid', sort: { field: 'createdDate', direction: 'desc' }, text: '  ' },
        { defaultSort, filters },
      ).toString(),
    ).toBe('tenant=x&sort=createdDate%2Cdesc');
  });
});

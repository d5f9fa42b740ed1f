import { describe, expect, it } from 'vitest';
import { listQuery, scopedQuery } from './list-query';

/** A handler's context as far as these helpers read it: the route's validated query. */
const contextWith = <Q>(query: Q) => ({ req: { valid: (_target: 'query') => query } });

describe('scopedQuery / listQuery', () => {
  it('leave out the resolved customerId selector, so handlers and services never see it', () => {
    const c = contextWith({ customerId: 7 as number | -1 | null | undefined, search: 'name~a', select: 'id' });
    const query = scopedQuery(c);

    expect(query).toEqual({ search: 'name~a', select: 'id' });
    // @ts-expect-error the selector is not part of what a handler gets
    expect(query.customerId).toBeUndefined();
  });

  it('give a list its sort values as a list', () => {
    expect(listQuery(contextWith({ customerId: -1, sort: 'name,desc', page: '2' }))).toEqual({ sort: ['name,desc'], page: '2' });
    expect(listQuery(contextWith({ sort: ['name', 'id,desc'] }))).toEqual({ sort: ['name', 'id,desc'] });
    const { sort, ...rest } = listQuery(contextWith({ customerId: null, sort: undefined as string | undefined, size: '5' }));
    expect({ sort, rest }).toEqual({ sort: [], rest: { size: '5' } });
    // @ts-expect-error nor does a list
    expect(listQuery(contextWith({ customerId: 3, sort: 'id' })).customerId).toBeUndefined();
  });
});

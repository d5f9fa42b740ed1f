import { describe, expect, it } from 'vitest';
import { buildQuery } from '@/lib/api/client';
import { NETWORK_OWNER_SEARCH, customerTextSearch } from '@/lib/api/customers';

describe('customer searches', () => {
  it('finds network owners with the keyword unencoded, encoded once more by the client', () => {
    expect(NETWORK_OWNER_SEARCH).toBe('subreseller=!NULL');
    expect(buildQuery({ search: NETWORK_OWNER_SEARCH })).toBe('?search=subreseller%3D!NULL');
  });

  it('matches the name ignoring case (~) and escapes the language characters of the text', () => {
    expect(customerTextSearch('  ')).toBeUndefined();
    expect(customerTextSearch('A, B (x)')).toBe('name~A%2C%20B%20%28x%29');
  });
});

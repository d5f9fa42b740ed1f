import { describe, expect, it } from 'vitest';
import { toUpdateBody } from '@/lib/api/update-body';

describe('update bodies', () => {
  it('sends a removed value as "" (null would be ignored by the API) and leaves out undefined', () => {
    expect(toUpdateBody({ name: 'A', comment: null, storageSize: undefined, restricted: false })).toEqual({
      name: 'A',
      comment: '',
      restricted: false,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { userTextSearch } from '@/lib/api/users';

describe('user search', () => {
  it('matches the name or the e-mail address ignoring case (~), the text escaped', () => {
    expect(userTextSearch(' ')).toBeUndefined();
    expect(userTextSearch(' Ann (HQ) ')).toBe('name~Ann%20%28HQ%29|email~Ann%20%28HQ%29');
  });
});

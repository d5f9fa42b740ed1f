import { describe, expect, it } from 'vitest';
import { safeCallbackUrl } from '@/lib/auth/callback-url';

describe('safeCallbackUrl', () => {
  it('keeps same-site paths', () => {
    expect(safeCallbackUrl('/users?page=2')).toBe('/users?page=2');
  });

  it('refuses other sites and loops', () => {
    for (const raw of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'users',
      '/login',
      '/login?x=1',
      '/api/v2/user',
      '',
      undefined,
    ]) {
      expect(safeCallbackUrl(raw)).toBe('/');
    }
  });
});

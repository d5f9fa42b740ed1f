import { describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage, pickLocale } from './locales';

describe('pickLocale', () => {
  it("takes the user's language when the console ships it", () => {
    expect(pickLocale('de', 'en-US,en;q=0.9')).toBe('de');
    expect(pickLocale('DE', null)).toBe('de');
  });

  it("falls back to the browser's Accept-Language, then English", () => {
    expect(pickLocale('fr', 'fr-FR,de-DE;q=0.8,en;q=0.5')).toBe('de');
    expect(pickLocale(null, 'de-AT')).toBe('de');
    expect(pickLocale(undefined, 'fr, es;q=0.9')).toBe('en');
    expect(pickLocale('', undefined)).toBe('en');
  });

  it('ranks Accept-Language by q, then by order, and skips q=0', () => {
    expect(localeFromAcceptLanguage('en;q=0.5, de;q=0.9')).toBe('de');
    expect(localeFromAcceptLanguage('de;q=0, en')).toBe('en');
    expect(localeFromAcceptLanguage('*')).toBeNull();
  });
});

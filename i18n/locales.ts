/**
 * The console's languages (item 15): the signed-in user's `language` (spec 3, a two-letter code) when the console
 * ships it, else the browser's Accept-Language, else English. No server imports: the proxy, the request config and
 * the tests read it.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
const DEFAULT_LOCALE: Locale = 'en';

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The shipped locale an Accept-Language header prefers most (by q, then by order), if any. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;

      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);

  return ranked.map((entry) => entry.language).find(isLocale) ?? null;
}

export function pickLocale(userLanguage: string | null | undefined, acceptLanguage: string | null | undefined): Locale {
  const own = userLanguage?.trim().toLowerCase();
  if (isLocale(own)) return own;

  return localeFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}

import { useLocale } from 'next-intl';
import { useMemo } from 'react';
import { countOf, formatBytes, formatDate, formatDateTime, formatNumber, type Noun } from '@/lib/format';

/** lib/format.ts bound to the console's locale: every date, number and size a component shows goes through it. */
export function useFormat() {
  const locale = useLocale();

  return useMemo(
    () => ({
      locale,
      dateTime: (value: string | number | null | undefined, fallback?: string) => formatDateTime(value, fallback, locale),
      date: (value: string | number | null | undefined, fallback?: string) => formatDate(value, fallback, locale),
      number: (value: number, fractionDigits?: number) => formatNumber(value, locale, fractionDigits),
      bytes: (value: number | null | undefined) => formatBytes(value, locale),
      count: (count: number, noun: Noun) => countOf(count, noun, locale),
    }),
    [locale],
  );
}

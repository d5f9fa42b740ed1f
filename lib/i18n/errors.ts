import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { ApiError } from '@/lib/api/client';

/**
 * An error as a sentence in the console's language: an API error whose `key` (DECISIONS §3) the `errors` catalogue
 * words, else the server's own `message` (English), else a generic sentence. The catalogue nests keys by their dots:
 * `user.error.lastOwner` is `errors.user.error.lastOwner`.
 */
export function localizedError(error: unknown, word: (key: string) => string | null): string {
  if (error instanceof ApiError) return word(error.key) ?? error.message;
  if (error instanceof Error && error.message) return error.message;

  return word('generic') ?? 'Something went wrong.';
}

export function useErrorMessage(): (error: unknown) => string {
  const t = useTranslations('errors');

  return useCallback(
    (error: unknown) =>
      localizedError(error, (key) => {
        const path = key as Parameters<typeof t>[0];

        return t.has(path) && typeof t.raw(path) === 'string' ? t(path) : null;
      }),
    [t],
  );
}

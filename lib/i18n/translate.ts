import type { useTranslations } from 'next-intl';

/** The `t` of one catalogue namespace, for helpers outside components (zod schemas built with the form's words). */
export type Translate<N extends NonNullable<Parameters<typeof useTranslations>[0]>> = ReturnType<typeof useTranslations<N>>;

import { headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { pickLocale, type Locale } from '@/i18n/locales';
import type { Messages } from '@/messages/en';
import { readSessionUser } from '@/lib/auth/session';

const CATALOGUES: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import('@/messages/en'),
  de: () => import('@/messages/de'),
};

/**
 * next-intl's per-request configuration (no locale in the URL): the signed-in user's language, else the browser's
 * Accept-Language, else English. The session carries the language (lib/auth/options.ts), so no API call is made here.
 */
export default getRequestConfig(async () => {
  const user = await readSessionUser();
  const locale = pickLocale(user?.language, (await headers()).get('accept-language'));

  return { locale, messages: (await CATALOGUES[locale]()).default };
});

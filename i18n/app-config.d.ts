import type { Locale } from '@/i18n/locales';
import type { Messages } from '@/messages/en';

// Typed keys: a missing or misspelt key fails `npm run typecheck` (next-intl's AppConfig).
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}

import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Providers } from '@/app/providers';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('common.app');

  return {
    title: { default: t('title'), template: `%s · ${t('title')}` },
    description: t('description'),
    robots: { index: false, follow: false },
    // Static files live in public/ (the favicon for browsers that ask for /favicon.ico, the logo as the SVG icon).
    icons: {
      icon: [
        { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
        { url: '/logo.svg', type: 'image/svg+xml' },
      ],
    },
  };
}

export const viewport: Viewport = { themeColor: '#fafafa' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of that request's Content-Security-Policy (proxy.ts).
  await connection();
  // The locale and its catalogue come from i18n/request.ts (the user's language, else the browser's).
  const locale = await getLocale();

  return (
    <html lang={locale}>
      <body className="min-h-dvh">
        <NextIntlClientProvider>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}

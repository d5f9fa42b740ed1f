import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/app/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Signage Console', template: '%s · Signage Console' },
  description: 'Manage screens, content and tenants.',
  robots: { index: false, follow: false },
  // Static files live in public/ (the favicon for browsers that ask for /favicon.ico, the logo as the SVG icon).
  icons: { icon: [{ url: '/favicon.ico', sizes: '16x16 32x32 48x48' }, { url: '/logo.svg', type: 'image/svg+xml' }] },
};

export const viewport: Viewport = { themeColor: '#fafafa' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of that request's Content-Security-Policy (proxy.ts).
  await connection();

  return (
    <html lang="en">
      <body className="min-h-dvh">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

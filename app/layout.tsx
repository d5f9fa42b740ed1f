import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '@/app/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Signage Console', template: '%s · Signage Console' },
  description: 'Manage screens, content and tenants.',
  robots: { index: false, follow: false },
};

export const viewport: Viewport = { themeColor: '#fafafa' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

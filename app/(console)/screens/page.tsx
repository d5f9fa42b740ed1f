import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ScreensPage } from '@/components/devices/screens-page';

export const metadata: Metadata = { title: 'Screens' };

export default function Screens() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <ScreensPage />
    </Suspense>
  );
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { ScreensPage } from '@/components/devices/screens-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('devices'))('title') };
}

export default function Screens() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <ScreensPage />
    </Suspense>
  );
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { MediaPage } from '@/components/files/media-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('media'))('title') };
}

export default function Media() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <MediaPage />
    </Suspense>
  );
}

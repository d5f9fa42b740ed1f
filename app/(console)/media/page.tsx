import type { Metadata } from 'next';
import { Suspense } from 'react';
import { MediaPage } from '@/components/files/media-page';

export const metadata: Metadata = { title: 'Media' };

export default function Media() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <MediaPage />
    </Suspense>
  );
}

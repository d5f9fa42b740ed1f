import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { ReportPage } from '@/components/reports/report-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('reports'))('title') };
}

export default function ProofOfPlay() {
  // useSearchParams (the report's state in the URL) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <ReportPage />
    </Suspense>
  );
}

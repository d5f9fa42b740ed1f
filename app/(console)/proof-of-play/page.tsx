import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReportPage } from '@/components/reports/report-page';

export const metadata: Metadata = { title: 'Proof of play' };

export default function ProofOfPlay() {
  // useSearchParams (the report's state in the URL) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <ReportPage />
    </Suspense>
  );
}

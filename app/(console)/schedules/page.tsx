import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SchedulesPage } from '@/components/schedules/schedules-page';

export const metadata: Metadata = { title: 'Schedules' };

export default function Schedules() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <SchedulesPage />
    </Suspense>
  );
}

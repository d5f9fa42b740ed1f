import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { SchedulesPage } from '@/components/schedules/schedules-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('schedules'))('title') };
}

export default function Schedules() {
  // useSearchParams (URL state) needs a Suspense boundary in a statically rendered page.
  return (
    <Suspense>
      <SchedulesPage />
    </Suspense>
  );
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AlertsPage } from '@/components/alerts/alerts-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('alerts'))('title') };
}

export default function Page() {
  return <AlertsPage />;
}

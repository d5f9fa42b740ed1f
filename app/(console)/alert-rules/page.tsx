import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AlertRulesPage } from '@/components/alerts/alert-rules-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('alerts.rules'))('title') };
}

export default function Page() {
  return <AlertRulesPage />;
}

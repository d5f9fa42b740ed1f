import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { IntegrationsPage } from '@/components/webhooks/integrations-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('webhooks'))('title') };
}

export default function Page() {
  return <IntegrationsPage />;
}

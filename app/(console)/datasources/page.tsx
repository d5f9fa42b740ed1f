import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DatasourcesPage } from '@/components/datasources/datasources-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('datasources'))('title') };
}

export default function Page() {
  return <DatasourcesPage />;
}

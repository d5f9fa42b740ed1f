import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { LicencesPage } from '@/components/licences/licences-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('licences'))('title') };
}

export default function Page() {
  return <LicencesPage />;
}

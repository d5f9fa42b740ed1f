import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PackagesPage } from '@/components/licences/packages-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('licences.packages'))('title') };
}

export default function Page() {
  return <PackagesPage />;
}

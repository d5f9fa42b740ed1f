import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AdvertisersPage } from '@/components/advertisers/advertisers-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('advertisers'))('title') };
}

export default function Page() {
  return <AdvertisersPage />;
}

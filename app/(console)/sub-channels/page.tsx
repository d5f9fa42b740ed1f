import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SubChannelsPage } from '@/components/sub-channels/sub-channels-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('subChannels'))('title') };
}

export default function Page() {
  return <SubChannelsPage />;
}

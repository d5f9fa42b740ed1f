import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ChannelsPage } from '@/components/channels/channels-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('channels'))('title') };
}

export default function Page() {
  return <ChannelsPage />;
}

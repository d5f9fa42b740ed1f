import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ChannelEditor } from '@/components/channels/channel-editor';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('channels'))('newChannel') };
}

export default function Page() {
  return <ChannelEditor />;
}

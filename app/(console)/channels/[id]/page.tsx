import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ChannelEditor } from '@/components/channels/channel-editor';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('channels'))('channel') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ChannelEditor id={id} />;
}

import type { Metadata } from 'next';
import { ChannelEditor } from '@/components/channels/channel-editor';

export const metadata: Metadata = { title: 'Channel' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ChannelEditor id={id} />;
}

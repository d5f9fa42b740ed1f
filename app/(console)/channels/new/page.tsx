import type { Metadata } from 'next';
import { ChannelEditor } from '@/components/channels/channel-editor';

export const metadata: Metadata = { title: 'New channel' };

export default function Page() {
  return <ChannelEditor />;
}

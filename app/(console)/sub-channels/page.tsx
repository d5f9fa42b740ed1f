import type { Metadata } from 'next';
import { SubChannelsPage } from '@/components/sub-channels/sub-channels-page';

export const metadata: Metadata = { title: 'Sub-channels' };

export default function Page() {
  return <SubChannelsPage />;
}

import type { Metadata } from 'next';
import { AdvertisersPage } from '@/components/advertisers/advertisers-page';

export const metadata: Metadata = { title: 'Advertisers' };

export default function Page() {
  return <AdvertisersPage />;
}

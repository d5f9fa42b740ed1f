import type { Metadata } from 'next';
import { ScreenDetailPage } from '@/components/devices/screen-detail-page';

export const metadata: Metadata = { title: 'Screen' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ScreenDetailPage id={id} />;
}

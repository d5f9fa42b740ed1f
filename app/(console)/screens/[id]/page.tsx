import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ScreenDetailPage } from '@/components/devices/screen-detail-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('devices'))('detail.title') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ScreenDetailPage id={id} />;
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ContentPage } from '@/components/content/content-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('content'))('title') };
}

export default function Page() {
  return <ContentPage />;
}

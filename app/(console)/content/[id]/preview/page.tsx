import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ContentPreviewPage } from '@/components/content/content-preview-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('content'))('preview.title') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ContentPreviewPage id={id} />;
}

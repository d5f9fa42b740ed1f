import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ContentEditorPage } from '@/components/content/content-editor-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('content'))('title') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ContentEditorPage id={id} />;
}

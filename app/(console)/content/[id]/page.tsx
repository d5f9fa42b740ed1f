import type { Metadata } from 'next';
import { ContentEditorPage } from '@/components/content/content-editor-page';

export const metadata: Metadata = { title: 'Content' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ContentEditorPage id={id} />;
}

import type { Metadata } from 'next';
import { ContentPreviewPage } from '@/components/content/content-preview-page';

export const metadata: Metadata = { title: 'Preview' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <ContentPreviewPage id={id} />;
}

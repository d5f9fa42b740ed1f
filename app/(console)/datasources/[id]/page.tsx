import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DatasourceDetail } from '@/components/datasources/detail/datasource-detail';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('datasourceData'))('detailTitle') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <DatasourceDetail datasourceId={id} />;
}

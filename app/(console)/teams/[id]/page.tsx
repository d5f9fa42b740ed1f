import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { TeamDetail } from '@/components/teams/team-detail';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('teams'))('detailTitle') };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <TeamDetail teamId={id} />;
}

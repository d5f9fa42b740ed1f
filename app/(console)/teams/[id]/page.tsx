import type { Metadata } from 'next';
import { TeamDetail } from '@/components/teams/team-detail';

export const metadata: Metadata = { title: 'Team' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;

  return <TeamDetail teamId={id} />;
}

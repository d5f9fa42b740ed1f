import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { TeamsPage } from '@/components/teams/teams-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('teams'))('title') };
}

export default function Page() {
  return <TeamsPage />;
}

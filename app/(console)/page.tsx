import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { Overview } from '@/components/overview/overview';
import { readSessionUser } from '@/lib/auth/session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('overview'))('title') };
}

export default async function OverviewPage() {
  const user = await readSessionUser();
  if (!user) redirect('/login');

  return <Overview user={user} />;
}

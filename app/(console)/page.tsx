import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Overview } from '@/components/overview/overview';
import { readSessionUser } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const user = await readSessionUser();
  if (!user) redirect('/login');

  return <Overview user={user} />;
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { CustomersPage } from '@/components/customers/customers-page';
import { readSessionUser } from '@/lib/auth/session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('customers'))('title') };
}

export default async function Customers() {
  const user = await readSessionUser();
  if (!user) redirect('/login');
  // ADMIN, or the OWNER of a network owner (checked on the client, where the customer is loaded).
  if (user.role !== 'ADMIN' && user.role !== 'OWNER') redirect('/');

  return <CustomersPage />;
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { InvoicesPage } from '@/components/licences/invoices/invoices-page';
import { readSessionUser } from '@/lib/auth/session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('licenceInvoices'))('title') };
}

export default async function LicenceInvoices() {
  const user = await readSessionUser();
  if (!user) redirect('/login');
  // The invoice views are the super admin's (ADMIN) alone; others are sent home, as the other admin pages do.
  if (user.role !== 'ADMIN') redirect('/');

  return <InvoicesPage />;
}

import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { UsersPageHeader } from '@/components/users/users-page-header';
import { MailOutbox } from '@/components/users/mail-outbox';
import { UsersTable } from '@/components/users/users-table';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('users'))('title') };
}

export default function UsersPage() {
  return (
    <>
      <UsersPageHeader />
      <UsersTable />
      <MailOutbox />
    </>
  );
}

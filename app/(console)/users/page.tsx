import type { Metadata } from 'next';
import { UsersPageHeader } from '@/components/users/users-page-header';
import { MailOutbox } from '@/components/users/mail-outbox';
import { UsersTable } from '@/components/users/users-table';

export const metadata: Metadata = { title: 'Users' };

export default function UsersPage() {
  return (
    <>
      <UsersPageHeader />
      <UsersTable />
      <MailOutbox />
    </>
  );
}

import type { Metadata } from 'next';
import { AccountPage } from '@/components/account/account-page';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Your account' };

export default function Account() {
  return (
    <>
      <PageHeader title="Your account" description="Your profile, password and sign-in security." />
      <AccountPage />
    </>
  );
}

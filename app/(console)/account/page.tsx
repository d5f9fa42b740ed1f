import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AccountPage } from '@/components/account/account-page';
import { PageHeader } from '@/components/ui/page-header';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.page'))('title') };
}

export default async function Account() {
  const t = await getTranslations('account.page');

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <AccountPage />
    </>
  );
}

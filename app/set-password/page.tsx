import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SetPasswordForm } from '@/components/password-setup/set-password-form';
import { BrandMark } from '@/components/shell/brand';

// The token is in this page's URL: never send it onwards in a Referer header.
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('passwordSetup');

  return { title: t('title'), referrer: 'no-referrer' };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Public: opened from the password-setup e-mail, with or without a session. */
export default async function SetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = typeof params.token === 'string' ? params.token : '';
  const t = await getTranslations();

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <BrandMark className="size-10" />
          <h1 className="mt-5 text-2xl font-semibold tracking-tight text-zinc-900">{t('passwordSetup.title')}</h1>
          <p className="mt-1.5 text-sm text-zinc-500">{t('passwordSetup.subtitle', { app: t('common.app.title') })}</p>
        </div>
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-900/5 sm:p-7">
          <SetPasswordForm token={token} />
        </div>
      </div>
    </main>
  );
}

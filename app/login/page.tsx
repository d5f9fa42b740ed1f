import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { LoginForm } from '@/components/auth/login-form';
import { BrandMark } from '@/components/shell/brand';
import { readSessionUser } from '@/lib/auth/session';
import { safeCallbackUrl } from '@/lib/auth/callback-url';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('auth'))('title') };
}

/** Why the console sent the user here, when it was on purpose. */
const NOTICES = ['password', 'deleted'] as const;
const isNotice = (reason: unknown): reason is (typeof NOTICES)[number] => NOTICES.includes(reason as (typeof NOTICES)[number]);

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined);
  if (await readSessionUser()) redirect(callbackUrl);
  const t = await getTranslations('auth');

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <BrandMark className="size-10" />
          <h1 className="mt-5 text-2xl font-semibold tracking-tight text-zinc-900">{t('heading')}</h1>
          <p className="mt-1.5 text-sm text-zinc-500">{t('lead')}</p>
        </div>
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-900/5 sm:p-7">
          <LoginForm
            callbackUrl={callbackUrl}
            expired={params.reason === 'expired'}
            notice={isNotice(params.reason) ? t(`notice.${params.reason}`) : undefined}
          />
        </div>
      </div>
    </main>
  );
}

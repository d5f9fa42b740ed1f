import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { BrandMark } from '@/components/shell/brand';
import { Button } from '@/components/ui/button';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('common.notFound'))('title') };
}

/** Every address the console does not know, and every page that calls `notFound()`: in the user's language. */
export default async function NotFound() {
  const t = await getTranslations('common.notFound');

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-4 py-12 text-center">
      <BrandMark className="size-10" />
      <p className="mt-6 text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">{t('title')}</h1>
      <p className="mt-2 max-w-md text-sm text-zinc-500">{t('lead')}</p>
      <Button asChild className="mt-6">
        <Link href="/">{t('home')}</Link>
      </Button>
    </main>
  );
}

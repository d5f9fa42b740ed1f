import { useTranslations } from 'next-intl';
import { cn } from '@/lib/cn';

/** The logo (public/logo.svg, also the browser icon). */
export function BrandMark({ className }: { className?: string }) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a static SVG: nothing for next/image to optimise
    <img src="/logo.svg" alt="" width={32} height={32} className={cn('size-8', className)} />
  );
}

export function Brand() {
  const t = useTranslations('common.app');

  return (
    <div className="flex items-center gap-2.5">
      <BrandMark />
      <span className="text-[15px] font-semibold tracking-tight text-zinc-900">{t('title')}</span>
    </div>
  );
}

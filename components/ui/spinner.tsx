import { useTranslations } from 'next-intl';
import { cn } from '@/lib/cn';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <svg
      className={cn('size-4 animate-spin', className)}
      viewBox="0 0 24 24"
      fill="none"
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** The "Updating…" hint beside a list toolbar while a refetch runs over shown data. */
export function UpdatingIndicator({ show, className }: { show: boolean; className?: string }) {
  const t = useTranslations('ui');
  if (!show) return null;

  return (
    <span className={cn('flex items-center gap-2 text-sm text-zinc-500', className)}>
      <Spinner /> {t('updating')}
    </span>
  );
}

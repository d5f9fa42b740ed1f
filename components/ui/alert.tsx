import type { ReactNode } from 'react';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

const TONES = {
  error: 'bg-red-50 text-red-800 ring-red-200',
  info: 'bg-brand-50 text-brand-800 ring-brand-200',
} as const;

export function Alert({
  tone = 'error',
  title,
  children,
  action,
  className,
}: {
  tone?: keyof typeof TONES;
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex items-start gap-3 rounded-md px-3.5 py-3 text-sm ring-1 ring-inset', TONES[tone], className)}
    >
      <div className="min-w-0 flex-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className={cn(title && 'mt-0.5 opacity-90')}>{children}</div> : null}
      </div>
      {action}
    </div>
  );
}

/** A list or form whose data failed to load, with a retry. */
export function LoadError({ title, error, onRetry, className }: { title: string; error: Error; onRetry: () => void; className?: string }) {
  const t = useTranslations('ui');
  const errorMessage = useErrorMessage();

  return (
    <Alert
      className={className}
      title={title}
      action={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {t('tryAgain')}
        </Button>
      }
    >
      {errorMessage(error)}
    </Alert>
  );
}

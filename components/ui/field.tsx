import type { ComponentProps, ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { Label } from '@/components/ui/label';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';

/** A labelled form control with its hint or error; `id` ties the label, the control and the message. */
export function Field({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-sm text-zinc-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes for a control inside Field. */
export function fieldAria(id: string, error?: string, hasHint = false) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hasHint ? `${id}-hint` : undefined,
  } as const;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'block h-9 w-full rounded-md border-0 bg-white py-0 pr-8 pl-3 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300',
        'focus:ring-2 focus:ring-brand-500 focus:outline-none aria-[invalid=true]:ring-red-400 disabled:bg-zinc-50 disabled:text-zinc-500',
        className,
      )}
      {...props}
    />
  );
}

/** A list's filter: as wide as its longest option (the browser's own sizing of a select), so no option is cut. */
export function FilterSelect({ className, ...props }: ComponentProps<'select'>) {
  return <Select className={cn('w-auto max-w-full', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400',
        'focus:ring-2 focus:ring-brand-500 focus:outline-none aria-[invalid=true]:ring-red-400',
        className,
      )}
      {...props}
    />
  );
}

/** A checkbox with its label and an optional description beside it. */
export function CheckboxField({
  id,
  label,
  description,
  ...props
}: ComponentProps<'input'> & { id: string; label: ReactNode; description?: ReactNode }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5 size-4 shrink-0 cursor-pointer rounded border-zinc-300 accent-brand-600"
        {...props}
      />
      <div className="text-sm">
        <label htmlFor={id} className="cursor-pointer font-medium text-zinc-800">
          {label}
        </label>
        {description ? (
          <p id={`${id}-description`} className="text-zinc-500">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The button row at the bottom of a dialog. */
export function DialogFooter({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('flex justify-end gap-2 border-t border-zinc-100 px-5 py-3.5', className)}>{children}</div>;
}

/**
 * The footer of a dialog's form: Cancel and the submit button, both held while the form is `pending`
 * (the submit shows a spinner). `extra` sits at the left (a secondary action such as "Remove expiration").
 */
export function FormFooter({
  pending = false,
  onCancel,
  submitLabel,
  submitDisabled = false,
  submitClassName,
  extra,
}: {
  pending?: boolean;
  onCancel: () => void;
  submitLabel: ReactNode;
  /** Held for another reason than a pending submit (an invalid value the form shows). */
  submitDisabled?: boolean;
  submitClassName?: string;
  extra?: ReactNode;
}) {
  const t = useTranslations('ui');

  return (
    <DialogFooter>
      {extra}
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        {t('cancel')}
      </Button>
      <Button type="submit" disabled={pending || submitDisabled} className={submitClassName}>
        {pending ? <Spinner /> : null}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}

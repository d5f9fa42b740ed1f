'use client';

import { useTranslations } from 'next-intl';
import { CheckboxField, FormFooter } from '@/components/ui/field';

/** The read-only switch of a team assignment dialog (members, folders). */
export function ReadOnlyField({
  id,
  checked,
  onChange,
  description,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description: string;
}) {
  const t = useTranslations('teams');

  return (
    <CheckboxField id={id} checked={checked} onChange={(e) => onChange(e.target.checked)} label={t('readOnly')} description={description} />
  );
}

/** The footer of a team assignment dialog: how many are picked, Cancel, and the submit button. */
export function AssignmentFooter({
  picked,
  isPending,
  onCancel,
  submitLabel,
}: {
  picked: number;
  isPending: boolean;
  onCancel: () => void;
  submitLabel: string;
}) {
  const t = useTranslations('teams');

  return (
    <FormFooter
      pending={isPending}
      onCancel={onCancel}
      submitLabel={submitLabel}
      submitDisabled={picked === 0}
      extra={
        <span className="mr-auto self-center text-sm text-zinc-500" aria-live="polite">
          {picked > 0 ? t('selected', { count: picked }) : null}
        </span>
      }
    />
  );
}

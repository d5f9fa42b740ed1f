'use client';

import { useTranslations } from 'next-intl';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState, type ComponentProps, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, Field, fieldAria, FormFooter, Select, Textarea } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { apiFieldErrors } from '@/lib/api/field-errors';
import { isCancelled } from '@/lib/api/protected';
import { formMessages } from '@/lib/forms/form-messages';
import { useErrorMessage } from '@/lib/i18n/errors';

/**
 * The create and edit dialog of a resource: a react-hook-form form validated by a zod schema built from
 * the module's wire schema (`*.schemas.ts`; lib/forms/form-messages words its checks), reset to `values`
 * each time it opens, submitting through one async `onSubmit` (a mutation of the resource API). A failed
 * submit shows the API's message; a 400 whose issues name form fields marks those fields, and
 * `fieldError` maps the resource's own error keys (a taken name) to a field or a plain sentence.
 */

/** What a failed submit means for the form: a field's message, a sentence above the fields, or the default. */
export type SubmitFailure<TValues extends FieldValues> = { field: Path<TValues>; message: string } | string | undefined;

type TextOptions = { label: ReactNode; hint?: ReactNode; autoFocus?: boolean } & Pick<
  ComponentProps<'input'>,
  'type' | 'inputMode' | 'autoComplete' | 'placeholder'
>;

/** Labelled controls bound to the form: ids, `aria-invalid`/`aria-describedby` and the field's error. */
export type FormFields<TValues extends FieldValues> = {
  text: (name: Path<TValues>, options: TextOptions) => ReactNode;
  textarea: (name: Path<TValues>, options: { label: ReactNode; hint?: ReactNode; rows?: number }) => ReactNode;
  select: (name: Path<TValues>, options: { label: ReactNode; hint?: ReactNode; children: ReactNode }) => ReactNode;
  checkbox: (name: Path<TValues>, options: { label: ReactNode; description?: ReactNode }) => ReactNode;
};

export function FormDialog<TValues extends FieldValues, TOutput>({
  open,
  onOpenChange,
  title,
  description,
  className,
  bodyClassName,
  schema,
  values,
  submitLabel,
  submitDisabled,
  onSubmit,
  required,
  fieldError,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  className?: string;
  bodyClassName?: string;
  /** The module's wire schema (or one built from it) the form validates with, in the console's words. */
  schema: z.ZodType<TOutput, TValues>;
  /** What each required field asks for when empty: `{ name: 'Enter a name' }`. */
  required?: Partial<Record<Path<TValues>, string>>;
  /** The form's values when it opens (the item's, or a new item's defaults). */
  values: TValues;
  submitLabel: ReactNode;
  /** The submit button is disabled (a part of the form outside its fields is invalid, e.g. a JSON editor). */
  submitDisabled?: boolean;
  /** Saves; resolves to close the dialog, or throws the API's error. */
  onSubmit: (values: TOutput, form: UseFormReturn<TValues, unknown, TOutput>) => Promise<unknown>;
  fieldError?: (error: unknown) => SubmitFailure<TValues>;
  children: (fields: FormFields<TValues>, form: UseFormReturn<TValues, unknown, TOutput>) => ReactNode;
}) {
  const [apiError, setApiError] = useState<string | null>(null);
  const formWords = useTranslations('common.form');
  const errorMessage = useErrorMessage();
  const form = useForm<TValues, unknown, TOutput>({
    resolver: zodResolver(schema, { error: formMessages(required, formWords) }),
    defaultValues: values as DefaultValues<TValues>,
  });
  const {
    register,
    reset,
    setError,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const baseId = useId();

  useEffect(() => {
    if (open) {
      reset(values);
      setApiError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `values` is read when the dialog opens; a new object each render must not reset what is being typed
  }, [open, reset]);

  const submit = handleSubmit(async (output) => {
    setApiError(null);
    try {
      await onSubmit(output, form);
      onOpenChange(false);
    } catch (error) {
      if (isCancelled(error)) return;
      const failure = fieldError?.(error);
      if (typeof failure === 'object') return setError(failure.field, { message: failure.message }, { shouldFocus: true });
      const issues = apiFieldErrors(error, Object.keys(form.getValues()));
      if (!failure && issues.length) {
        issues.forEach((issue, i) => setError(issue.field as Path<TValues>, { message: issue.message }, { shouldFocus: i === 0 }));

        return;
      }
      setApiError(failure ?? errorMessage(error));
    }
  });

  const idOf = (name: string) => `${baseId}-${name}`;
  const errorOf = (name: Path<TValues>): string | undefined => {
    const error = name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], errors);

    return (error as { message?: string } | undefined)?.message;
  };
  const fields: FormFields<TValues> = {
    text: (name, { label, hint, autoFocus, autoComplete = 'off', ...input }) => (
      <Field id={idOf(name)} label={label} error={errorOf(name)} hint={hint}>
        <Input
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          {...input}
          {...fieldAria(idOf(name), errorOf(name), Boolean(hint))}
          {...register(name)}
        />
      </Field>
    ),
    textarea: (name, { label, hint, rows = 3 }) => (
      <Field id={idOf(name)} label={label} error={errorOf(name)} hint={hint}>
        <Textarea rows={rows} {...fieldAria(idOf(name), errorOf(name), Boolean(hint))} {...register(name)} />
      </Field>
    ),
    select: (name, { label, hint, children: options }) => (
      <Field id={idOf(name)} label={label} error={errorOf(name)} hint={hint}>
        <Select {...fieldAria(idOf(name), errorOf(name), Boolean(hint))} {...register(name)}>
          {options}
        </Select>
      </Field>
    ),
    checkbox: (name, { label, description }) => (
      <CheckboxField id={idOf(name)} label={label} description={description} {...register(name)} />
    ),
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent title={title} description={description} className={className}>
        <form onSubmit={submit} noValidate>
          <div className={bodyClassName ?? 'space-y-4 px-5 py-4'}>
            {apiError ? <Alert>{apiError}</Alert> : null}
            {children(fields, form)}
          </div>
          <FormFooter
            pending={isSubmitting}
            onCancel={() => onOpenChange(false)}
            submitLabel={submitLabel}
            submitDisabled={submitDisabled}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

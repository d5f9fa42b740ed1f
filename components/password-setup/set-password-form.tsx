'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { useCompletePasswordSetup, usePasswordSetupLink, type PasswordSetupLink } from '@/lib/api/password-setup';
import type { Translate } from '@/lib/i18n/translate';

// The API's rules for a password (server/modules/users/users.schemas.ts).
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;

const passwordSchema = (t: Translate<'passwordSetup'>) =>
  z
    .object({
      password: z
        .string()
        .min(PASSWORD_MIN, t('atLeast', { min: PASSWORD_MIN }))
        .max(PASSWORD_MAX, t('atMost', { max: PASSWORD_MAX })),
      confirm: z.string(),
    })
    .refine((v) => v.password === v.confirm, { path: ['confirm'], message: t('mismatch') });
type Values = z.infer<ReturnType<typeof passwordSchema>>;

type Unusable = Exclude<PasswordSetupLink['state'], 'VALID'>;

const ERROR_STATES: Record<string, Unusable> = {
  'passwordSetup.error.used': 'USED',
  'passwordSetup.error.expired': 'EXPIRED',
  'passwordSetup.error.superseded': 'SUPERSEDED',
};

function linkProblem(t: Translate<'passwordSetup'>, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404 || error.status === 400) return t('problem.invalid');
    if (error.status === 429) return t('problem.tooMany');
    const state = ERROR_STATES[error.key];
    if (state) return t(`unusable.${state}`);
    if (error.status === 403) return t('problem.blocked');
  }

  return t('problem.generic');
}

function SignInLink() {
  const t = useTranslations('passwordSetup');

  return (
    <Button asChild className="w-full">
      <Link href="/login">{t('goToSignIn')}</Link>
    </Button>
  );
}

/** Lets a new user choose their password with the single-use link from their e-mail. */
export function SetPasswordForm({ token }: { token: string }) {
  const t = useTranslations('passwordSetup');
  const schema = useMemo(() => passwordSchema(t), [t]);
  const link = usePasswordSetupLink(token);
  const complete = useCompletePasswordSetup();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { password: '', confirm: '' } });

  if (!token) return <Alert>{t('noToken')}</Alert>;
  if (link.isPending) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label={t('checking')} />
      </div>
    );
  }
  if (link.isError) return <Alert>{linkProblem(t, link.error)}</Alert>;
  if (complete.isSuccess) {
    return (
      <div className="space-y-5">
        <Alert tone="info" title={t('doneTitle')}>
          {t('doneText', { email: complete.data.email })}
        </Alert>
        <SignInLink />
      </div>
    );
  }
  if (link.data.state !== 'VALID') {
    return (
      <div className="space-y-5">
        <Alert>{t(`unusable.${link.data.state}`)}</Alert>
        <SignInLink />
      </div>
    );
  }

  const onSubmit = handleSubmit((values) => complete.mutate({ token, password: values.password }));

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {complete.isError ? <Alert>{linkProblem(t, complete.error)}</Alert> : null}
      <Field id="setup-email" label={t('email')}>
        <Input id="setup-email" type="email" autoComplete="username" value={link.data.email} readOnly />
      </Field>
      <Field id="setup-password" label={t('newPassword')} error={errors.password?.message} hint={t('hint', { min: PASSWORD_MIN })}>
        <Input
          type="password"
          autoComplete="new-password"
          autoFocus
          {...fieldAria('setup-password', errors.password?.message, true)}
          {...register('password')}
        />
      </Field>
      <Field id="setup-confirm" label={t('repeat')} error={errors.confirm?.message}>
        <Input
          type="password"
          autoComplete="new-password"
          {...fieldAria('setup-confirm', errors.confirm?.message)}
          {...register('confirm')}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={complete.isPending}>
        {complete.isPending ? <Spinner /> : null}
        {t('submit')}
      </Button>
    </form>
  );
}

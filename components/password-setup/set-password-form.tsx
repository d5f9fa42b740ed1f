'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { useCompletePasswordSetup, usePasswordSetupLink, type PasswordSetupLink } from '@/lib/api/password-setup';

// The API's rules for a password (server/modules/users/users.schemas.ts).
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;

const schema = z
  .object({
    password: z.string().min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The passwords do not match' });
type Values = z.infer<typeof schema>;

const UNUSABLE: Record<Exclude<PasswordSetupLink['state'], 'VALID'>, string> = {
  USED: 'This link was used already. Sign in with the password you chose, or ask your administrator for a new link.',
  EXPIRED: 'This link has expired. Ask your administrator to send you a new one.',
  SUPERSEDED: 'A newer link was sent to you. Use the link in the most recent e-mail.',
};

const ERROR_STATES: Record<string, keyof typeof UNUSABLE> = {
  'passwordSetup.error.used': 'USED',
  'passwordSetup.error.expired': 'EXPIRED',
  'passwordSetup.error.superseded': 'SUPERSEDED',
};

function linkProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404 || error.status === 400) return 'This link is not valid. Check that you copied the whole link from the e-mail.';
    if (error.status === 429) return 'Too many invalid links were tried. Wait a few minutes, then try again.';
    if (ERROR_STATES[error.key]) return UNUSABLE[ERROR_STATES[error.key]!];
    if (error.status === 403) return 'Your account cannot be used at the moment. Contact your administrator.';
  }

  return 'Something went wrong. Try again in a moment.';
}

function SignInLink() {
  return (
    <Button asChild className="w-full">
      <Link href="/login">Go to sign in</Link>
    </Button>
  );
}

/** Lets a new user choose their password with the single-use link from their e-mail. */
export function SetPasswordForm({ token }: { token: string }) {
  const link = usePasswordSetupLink(token);
  const complete = useCompletePasswordSetup();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { password: '', confirm: '' } });

  if (!token) return <Alert>This page needs the link from your e-mail. Open the link in the message you received.</Alert>;
  if (link.isPending) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label="Checking your link" />
      </div>
    );
  }
  if (link.isError) return <Alert>{linkProblem(link.error)}</Alert>;
  if (complete.isSuccess) {
    return (
      <div className="space-y-5">
        <Alert tone="info" title="Your password is set">
          Sign in as {complete.data.email} with your new password.
        </Alert>
        <SignInLink />
      </div>
    );
  }
  if (link.data.state !== 'VALID') {
    return (
      <div className="space-y-5">
        <Alert>{UNUSABLE[link.data.state]}</Alert>
        <SignInLink />
      </div>
    );
  }

  const onSubmit = handleSubmit((values) => complete.mutate({ token, password: values.password }));

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {complete.isError ? <Alert>{linkProblem(complete.error)}</Alert> : null}
      <Field id="setup-email" label="E-mail">
        <Input id="setup-email" type="email" autoComplete="username" value={link.data.email} readOnly />
      </Field>
      <Field id="setup-password" label="New password" error={errors.password?.message} hint={`At least ${PASSWORD_MIN} characters`}>
        <Input type="password" autoComplete="new-password" autoFocus {...fieldAria('setup-password', errors.password?.message, true)} {...register('password')} />
      </Field>
      <Field id="setup-confirm" label="Repeat the password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...fieldAria('setup-confirm', errors.confirm?.message)} {...register('confirm')} />
      </Field>
      <Button type="submit" className="w-full" disabled={complete.isPending}>
        {complete.isPending ? <Spinner /> : null}
        Set password
      </Button>
    </form>
  );
}

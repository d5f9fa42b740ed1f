'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { SIGN_IN_ERRORS, type SignInError } from '@/lib/auth/types';
import type { Translate } from '@/lib/i18n/translate';

const loginSchema = (t: Translate<'auth'>) =>
  z.object({
    email: z.email(t('enterEmail')),
    password: z.string().min(1, t('enterPassword')),
    totp: z
      .string()
      .trim()
      .regex(/^(\d{6})?$/, t('sixDigits'))
      .optional(),
  });
type LoginValues = z.infer<ReturnType<typeof loginSchema>>;

const isSignInError = (code: string): code is SignInError => (Object.values(SIGN_IN_ERRORS) as string[]).includes(code);

export function LoginForm({ callbackUrl, expired, notice }: { callbackUrl: string; expired: boolean; notice?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [isRedirecting, setIsRedirecting] = useState(false);
  const codeRef = useRef<HTMLInputElement | null>(null);
  const t = useTranslations('auth');
  const schema = useMemo(() => loginSchema(t), [t]);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ resolver: zodResolver(schema), defaultValues: { email: '', password: '', totp: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    const result = await signIn('credentials', {
      redirect: false,
      email: values.email,
      password: values.password,
      totp: values.totp ?? '',
    });
    if (result?.ok && !result.error) {
      // A full navigation, so the server renders the console with the new session cookie.
      setIsRedirecting(true);
      window.location.assign(callbackUrl);

      return;
    }
    const code = result?.error && isSignInError(result.error) ? result.error : SIGN_IN_ERRORS.unavailable;
    if (code === SIGN_IN_ERRORS.totpRequired || code === SIGN_IN_ERRORS.totpInvalid) {
      setNeedsCode(true);
      requestAnimationFrame(() => codeRef.current?.focus());
    }
    setError(t(`error.${code}`));
  });

  const isPending = isSubmitting || isRedirecting;
  const { ref: totpRef, ...totpField } = register('totp');

  return (
    // method="post": a submit before hydration must never put the credentials in the URL.
    <form
      method="post"
      action="/login"
      onSubmit={onSubmit}
      noValidate
      className="space-y-5"
      aria-describedby={error ? 'login-error' : undefined}
    >
      {notice && !error ? <Alert tone="info">{notice}</Alert> : null}
      {expired && !notice && !error ? <Alert tone="info">{t('notice.expired')}</Alert> : null}
      {error ? (
        <div id="login-error">
          <Alert>{error}</Alert>
        </div>
      ) : null}

      <div className="space-y-1.5">
        <Label htmlFor="email">{t('email')}</Label>
        <Input
          id="email"
          type="email"
          autoComplete="username"
          autoFocus
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? 'email-error' : undefined}
          {...register('email')}
        />
        {errors.email ? (
          <p id="email-error" className="text-sm text-red-700">
            {errors.email.message}
          </p>
        ) : null}
      </div>

      <div className="space-y-1.5">
        <Label htmlFor="password">{t('password')}</Label>
        <Input
          id="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'password-error' : undefined}
          {...register('password')}
        />
        {errors.password ? (
          <p id="password-error" className="text-sm text-red-700">
            {errors.password.message}
          </p>
        ) : null}
      </div>

      {needsCode ? (
        <div className="space-y-1.5">
          <Label htmlFor="totp">{t('code')}</Label>
          <Input
            id="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="123456"
            className="font-mono tracking-widest"
            aria-invalid={errors.totp ? true : undefined}
            aria-describedby={errors.totp ? 'totp-error' : 'totp-hint'}
            ref={(el) => {
              totpRef(el);
              codeRef.current = el;
            }}
            {...totpField}
          />
          {errors.totp ? (
            <p id="totp-error" className="text-sm text-red-700">
              {errors.totp.message}
            </p>
          ) : (
            <p id="totp-hint" className="text-sm text-zinc-500">
              {t('codeHint')}
            </p>
          )}
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {isPending ? t('signingIn') : t('signIn')}
      </Button>
    </form>
  );
}

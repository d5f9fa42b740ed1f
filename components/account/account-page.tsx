'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useSession } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import QRCode from 'qrcode';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Avatar } from '@/components/shell/user-menu';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldAria, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { isCancelled } from '@/lib/api/protected';
import type { Me } from '@/lib/api/types';
import {
  useChangePassword,
  useDeleteMyAccount,
  useDeleteProfilePicture,
  useMe,
  useSetTotp,
  useStartTotpEnrolment,
  useUpdateUser,
  useUploadProfilePicture,
  type TotpSecret,
} from '@/lib/api/users';
import { signOutTo } from '@/lib/auth/sign-out';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel, useLabelOptions } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';

const MAX_PICTURE_BYTES = 2 * 1024 * 1024;

function Section({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <Card className="grid gap-6 p-6 md:grid-cols-3">
      <div>
        <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
        <p className="mt-1 text-sm text-zinc-500">{description}</p>
      </div>
      <div className="md:col-span-2">{children}</div>
    </Card>
  );
}

export function AccountPage() {
  const me = useMe();
  const t = useTranslations('account');

  if (me.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-zinc-500">
        <Spinner /> {t('loading')}
      </div>
    );
  }
  if (me.isError) {
    return <LoadError title={t('loadError')} error={me.error} onRetry={() => void me.refetch()} />;
  }

  return (
    <div className="space-y-6">
      <Section title={t('profile.title')} description={t('profile.description')}>
        <div className="space-y-6">
          <ProfilePicture me={me.data} />
          <ProfileForm me={me.data} />
        </div>
      </Section>
      <Section title={t('password.title')} description={t('password.description')}>
        <PasswordForm />
      </Section>
      <Section title={t('twoFactor.title')} description={t('twoFactor.description')}>
        <TwoFactor me={me.data} />
      </Section>
      <Section title={t('delete.title')} description={t('delete.description')}>
        <DeleteAccount me={me.data} />
      </Section>
    </div>
  );
}

/* ---------------------------------------------------------------- profile picture */

function ProfilePicture({ me }: { me: Me }) {
  const upload = useUploadProfilePicture();
  const remove = useDeleteProfilePicture();
  const inputRef = useRef<HTMLInputElement | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(() => Date.now());
  const inputId = useId();
  const t = useTranslations('account.picture');
  const errorMessage = useErrorMessage();

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(next: File | undefined) {
    setError(null);
    if (!next) return;
    if (!next.type.startsWith('image/')) return setError(t('notImage'));
    if (next.size > MAX_PICTURE_BYTES) return setError(t('tooLarge'));
    setFile(next);
    setPreview(URL.createObjectURL(next));
  }

  function clear() {
    setFile(null);
    setPreview(null);
    if (inputRef.current) inputRef.current.value = '';
  }

  async function save() {
    if (!file) return;
    setError(null);
    try {
      await upload.mutateAsync(file);
      setVersion(Date.now());
      clear();
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  async function removePicture() {
    setError(null);
    try {
      await remove.mutateAsync();
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  const current =
    me.hasProfilePicture && me.profilePictureApiPath
      ? `${me.profilePictureApiPath}${me.profilePictureApiPath.includes('?') ? '&' : '?'}v=${version}`
      : null;
  const shown = preview ?? current;
  const busy = upload.isPending || remove.isPending;

  return (
    <div className="space-y-3">
      <div className="flex items-center gap-4">
        {shown ? (
          // eslint-disable-next-line @next/next/no-img-element -- an API-served picture or a local preview
          <img src={shown} alt={preview ? t('preview') : t('current')} className="size-16 rounded-full object-cover ring-1 ring-zinc-200" />
        ) : (
          <span className="[&>span]:size-16 [&>span]:text-lg">
            <Avatar name={me.name || me.email} />
          </span>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="sr-only"
            onChange={(e) => choose(e.target.files?.[0])}
          />
          {file ? (
            <>
              <Button onClick={() => void save()} disabled={busy}>
                {upload.isPending ? <Spinner /> : null}
                {t('save')}
              </Button>
              <Button variant="secondary" onClick={clear} disabled={busy}>
                {t('cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button variant="secondary" asChild>
                <label htmlFor={inputId} className="cursor-pointer">
                  {me.hasProfilePicture ? t('change') : t('upload')}
                </label>
              </Button>
              {me.hasProfilePicture ? (
                <Button variant="ghost" onClick={() => void removePicture()} disabled={busy}>
                  {remove.isPending ? <Spinner /> : null}
                  {t('remove')}
                </Button>
              ) : null}
            </>
          )}
        </div>
      </div>
      <p className="text-sm text-zinc-500">{file ? t('notSaved', { name: file.name }) : t('hint')}</p>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}

/* ---------------------------------------------------------------- profile */

const profileSchema = (t: Translate<'account.form'>) =>
  z.object({ name: z.string().trim().min(1, t('enterName')).max(255), language: z.string() });

function ProfileForm({ me }: { me: Me }) {
  const update = useUpdateUser();
  const t = useTranslations('account.form');
  const label = useLabel();
  const languages = useLabelOptions('language');
  const errorMessage = useErrorMessage();
  const session = useSession();
  const router = useRouter();
  const schema = useMemo(() => profileSchema(t), [t]);
  // "Saved" is worded when shown, not when saved: saving a new language re-renders the page in it.
  const [status, setStatus] = useState<{ tone: 'error'; text: string } | { tone: 'info' } | null>(null);
  const ids = { name: useId(), email: useId(), language: useId() };
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: me.name ?? '', language: me.language ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      await update.mutateAsync({
        email: me.email,
        changes: { name: values.name.trim(), ...(values.language ? { language: values.language } : {}) },
      });
      reset(values);
      setStatus({ tone: 'info' });
      // The console speaks the saved language at once: the session follows, and the server renders the page again.
      if (values.language && values.language !== me.language) {
        await session.update({ language: values.language });
        router.refresh();
      }
    } catch (e) {
      if (!isCancelled(e)) setStatus({ tone: 'error', text: errorMessage(e) });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={ids.name} label={t('name')} error={errors.name?.message}>
          <Input autoComplete="name" {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
        </Field>
        <Field id={ids.language} label={t('language')}>
          <Select id={ids.language} {...register('language')}>
            <option value="">{t('notSet')}</option>
            {languages.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-zinc-500">{t('email')}</dt>
          <dd className="mt-0.5 text-zinc-900">{me.email}</dd>
        </div>
        <div>
          <dt className="text-zinc-500">{t('role')}</dt>
          <dd className="mt-0.5">
            <Badge tone="brand">{label('role', me.role)}</Badge>
          </dd>
        </div>
      </dl>
      {status ? <Alert tone={status.tone}>{status.tone === 'info' ? t('saved') : status.text}</Alert> : null}
      <Button type="submit" disabled={isSubmitting || !isDirty}>
        {isSubmitting ? <Spinner /> : null}
        {t('save')}
      </Button>
    </form>
  );
}

/* ---------------------------------------------------------------- password */

const passwordSchema = (t: Translate<'account.password'>) =>
  z
    .object({
      oldPassword: z.string().min(1, t('enterCurrent')),
      newPassword: z.string().min(8, t('atLeast')).max(256, t('atMost')),
      confirm: z.string(),
    })
    .refine((v) => v.newPassword === v.confirm, { path: ['confirm'], message: t('mismatch') })
    .refine((v) => v.newPassword !== v.oldPassword, { path: ['newPassword'], message: t('same') });

function PasswordForm() {
  const change = useChangePassword();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const ids = { old: useId(), next: useId(), confirm: useId() };
  const t = useTranslations('account.password');
  const errorMessage = useErrorMessage();
  const schema = useMemo(() => passwordSchema(t), [t]);
  const {
    register,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { oldPassword: '', newPassword: '', confirm: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await change.mutateAsync({ oldPassword: values.oldPassword, newPassword: values.newPassword });
      // The API ended every session of this user: sign out here too and ask for a fresh sign-in.
      setDone(true);
      await signOutTo(queryClient, 'password');
    } catch (e) {
      if (isCancelled(e)) return;
      const message = errorMessage(e);
      if (e instanceof ApiError && e.key === 'user.error.oldPasswordInvalid') setFieldError('oldPassword', { message });
      else setError(message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      <Field id={ids.old} label={t('current')} error={errors.oldPassword?.message}>
        <Input
          type="password"
          autoComplete="current-password"
          {...fieldAria(ids.old, errors.oldPassword?.message)}
          {...register('oldPassword')}
        />
      </Field>
      <Field id={ids.next} label={t('new')} error={errors.newPassword?.message} hint={t('newHint')}>
        <Input
          type="password"
          autoComplete="new-password"
          {...fieldAria(ids.next, errors.newPassword?.message, true)}
          {...register('newPassword')}
        />
      </Field>
      <Field id={ids.confirm} label={t('confirm')} error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...fieldAria(ids.confirm, errors.confirm?.message)} {...register('confirm')} />
      </Field>
      {error ? <Alert>{error}</Alert> : null}
      {done ? <Alert tone="info">{t('changed')}</Alert> : null}
      <Button type="submit" disabled={isSubmitting || done}>
        {isSubmitting || done ? <Spinner /> : null}
        {t('change')}
      </Button>
    </form>
  );
}

/* ---------------------------------------------------------------- two-factor */

const codeSchema = (t: Translate<'account.twoFactor'>) =>
  z.object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, t('sixDigits')),
  });

function CodeForm({
  label,
  submitLabel,
  onCode,
  destructive,
}: {
  label: string;
  submitLabel: string;
  onCode: (code: string) => Promise<void>;
  destructive?: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const t = useTranslations('account.twoFactor');
  const errorMessage = useErrorMessage();
  const schema = useMemo(() => codeSchema(t), [t]);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    setError(null);
    try {
      await onCode(code);
      reset();
    } catch (e) {
      setError(errorMessage(e));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <Field id={id} label={label} error={errors.code?.message} className="w-60">
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="123456"
            className="font-mono tracking-widest"
            {...fieldAria(id, errors.code?.message)}
            {...register('code')}
          />
        </Field>
        <Button type="submit" disabled={isSubmitting} className={destructive ? 'bg-red-600 hover:bg-red-700' : undefined}>
          {isSubmitting ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </div>
      {error ? <Alert>{error}</Alert> : null}
    </form>
  );
}

function QrCode({ value }: { value: string }) {
  const t = useTranslations('account.twoFactor');
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((markup) => active && setSvg(markup));

    return () => {
      active = false;
    };
  }, [value]);

  return (
    <div
      role="img"
      aria-label={t('qr')}
      data-testid="totp-qr"
      className="size-44 shrink-0 rounded-lg bg-white p-2 ring-1 ring-zinc-200 [&>svg]:size-full"
      // The markup comes from the qrcode library, built from the otpauth URL only.
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}

function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

function TwoFactor({ me }: { me: Me }) {
  const start = useStartTotpEnrolment();
  const setTotp = useSetTotp();
  const [pending, setPending] = useState<TotpSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const t = useTranslations('account.twoFactor');
  const errorMessage = useErrorMessage();

  if (me.use2FA) {
    return (
      <div className="space-y-4">
        <p className="flex items-center gap-2 text-sm text-zinc-700">
          <Badge tone="brand">{t('on')}</Badge> {t('onText')}
        </p>
        {notice ? <Alert tone="info">{notice}</Alert> : null}
        <CodeForm
          label={t('codeToTurnOff')}
          submitLabel={t('turnOff')}
          destructive
          onCode={async (code) => {
            await setTotp.mutateAsync({ totp: code, enable: false });
            setNotice(null);
          }}
        />
      </div>
    );
  }

  if (!pending) {
    return (
      <div className="space-y-4">
        <p className="flex items-center gap-2 text-sm text-zinc-700">
          <Badge>{t('off')}</Badge>
          {me.forceToSet2FA ? t('required') : t('passwordOnly')}
        </p>
        {notice ? <Alert tone="info">{notice}</Alert> : null}
        {start.isError ? <Alert>{errorMessage(start.error)}</Alert> : null}
        <Button
          onClick={() => {
            setNotice(null);
            start.mutate(undefined, { onSuccess: setPending });
          }}
          disabled={start.isPending}
        >
          {start.isPending ? <Spinner /> : null}
          {t('setUp')}
        </Button>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-zinc-700">
        <li>{t('step1')}</li>
        <li>{t('step2')}</li>
      </ol>
      <div className="flex flex-wrap items-center gap-6">
        <QrCode value={pending.otpauthUrl} />
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-zinc-500">{t('key')}</p>
          <p className="font-mono text-sm break-all text-zinc-900 select-all" data-testid="totp-secret" data-secret={pending.secret}>
            {groupSecret(pending.secret)}
          </p>
        </div>
      </div>
      <CodeForm
        label={t('codeFromApp')}
        submitLabel={t('turnOn')}
        onCode={async (code) => {
          await setTotp.mutateAsync({ totp: code, enable: true });
          setPending(null);
          setNotice(t('isOn'));
        }}
      />
      <Button variant="ghost" onClick={() => setPending(null)}>
        {t('cancel')}
      </Button>
    </div>
  );
}

/* ---------------------------------------------------------------- delete account */

function DeleteAccount({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const deleteAccount = useDeleteMyAccount();
  const queryClient = useQueryClient();
  const t = useTranslations('account.delete');

  return (
    <>
      <Button variant="secondary" className="text-red-700" onClick={() => setOpen(true)}>
        {t('button')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('dialogTitle')}
        destructive
        confirmLabel={t('button')}
        typeToConfirm={me.email}
        description={t('dialogText')}
        onConfirm={async () => {
          await deleteAccount.mutateAsync();
          await signOutTo(queryClient, 'deleted');
        }}
      />
    </>
  );
}

'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, Field, fieldAria, FormFooter, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { TeamChoice } from '@/components/teams/team-choice';
import { ApiError } from '@/lib/api/client';
import { isCancelled } from '@/lib/api/protected';
import type { Role, User } from '@/lib/api/types';
import { useCustomerSelect } from '@/lib/api/customers';
import { useCreateUser, useDeleteUser, useUpdateUser, type UpdateUserInput } from '@/lib/api/users';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useMailStatus } from '@/lib/api/mail';
import { assignableRoles } from '@/lib/auth/permissions';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel, useLabelOptions } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useTenant } from '@/lib/tenant/tenant-context';

const ROLE_VALUES = ['ADMIN', 'OWNER', 'TECHNICIAN', 'APPROVER', 'EDITOR', 'VIEWER', 'DEVICE_USER'] as const;

const createSchema = (t: Translate<'users.form'>) =>
  z.object({
    email: z.email(t('invalidEmail')),
    name: z.string().trim().min(1, t('enterName')).max(255),
    role: z.enum(ROLE_VALUES, t('chooseRole')),
    password: z.string().min(8, t('atLeast')).max(256, t('atMost')),
    language: z.string(),
    restricted: z.boolean(),
  });
type CreateValues = z.infer<ReturnType<typeof createSchema>>;

const editSchema = (t: Translate<'users.form'>) =>
  z.object({
    name: z.string().trim().min(1, t('enterName')).max(255),
    role: z.enum(ROLE_VALUES),
    language: z.string(),
    restricted: z.boolean(),
    readOnly: z.boolean(),
  });
type EditValues = z.infer<ReturnType<typeof editSchema>>;

function RoleOptions({ roles }: { roles: Role[] }) {
  const label = useLabel();

  return roles.map((role) => (
    <option key={role} value={role}>
      {label('role', role)}
    </option>
  ));
}

function LanguageOptions({ allowNone }: { allowNone?: boolean }) {
  const t = useTranslations('users.form');
  const languages = useLabelOptions('language');

  return (
    <>
      {allowNone ? <option value="">{t('notSet')}</option> : null}
      {languages.map((l) => (
        <option key={l.value} value={l.value}>
          {l.label}
        </option>
      ))}
    </>
  );
}

export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const me = useCurrentUser();
  const { tenant, canSwitch, all } = useTenant();
  // With every tenant (or the whole network) shown, the new user's tenant is chosen here.
  const choosesTenant = canSwitch && !tenant;
  const roles = assignableRoles(me.role);
  const create = useCreateUser();
  const [apiError, setApiError] = useState<string | null>(null);
  const [chosenTenant, setChosenTenant] = useState<{ id: number; name: string } | null>(null);
  const [tenantError, setTenantError] = useState<string | null>(null);
  const [teamIds, setTeamIds] = useState<string[]>([]);
  const mail = useMailStatus();
  const t = useTranslations('users.form');
  const teamsT = useTranslations('teams');
  const resendT = useTranslations('users.resend');
  const errorMessage = useErrorMessage();
  const schema = useMemo(() => createSchema(t), [t]);
  const ids = { email: useId(), name: useId(), role: useId(), password: useId(), language: useId(), tenant: useId(), restricted: useId() };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CreateValues>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', name: '', role: 'VIEWER', password: '', language: 'en', restricted: false },
  });
  // OWNER and ADMIN are above teams (spec 1): neither teams nor the restriction apply to them.
  const joinsTeams = !['OWNER', 'ADMIN'].includes(watch('role'));
  // Teams are the tenant's: under "All tenants" they are offered once the tenant is the selected one.
  const offersTeams = joinsTeams && !choosesTenant;

  useEffect(() => {
    if (open) {
      reset();
      setApiError(null);
      setChosenTenant(null);
      setTenantError(null);
      setTeamIds([]);
    }
  }, [open, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setApiError(null);
    if (choosesTenant && !chosenTenant) {
      setTenantError(t('chooseTenantError'));

      return;
    }
    try {
      const { restricted, ...rest } = values;
      await create.mutateAsync({
        ...rest,
        restricted: joinsTeams && restricted,
        teamIds: offersTeams ? teamIds : [],
        customerId: choosesTenant ? chosenTenant?.id : undefined,
      });
      onOpenChange(false);
    } catch (error) {
      if (isCancelled(error)) return;
      if (error instanceof ApiError && error.key === 'user.error.emailExists') setError('email', { message: t('emailExists', { email: values.email }) });
      else setApiError(errorMessage(error));
    }
  });

  const target = choosesTenant ? chosenTenant?.name : (tenant?.name ?? me.customerName ?? t('yourTenant'));

  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent
        title={t('newTitle')}
        description={
          target ? t.rich('joins', { tenant: target, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> }) : t('chooseAmong', { all: all.phrase })
        }
      >
        <form onSubmit={onSubmit} noValidate>
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            {mail.data?.smtpConfigured === false ? (
              <Alert tone="info" title={t('noMailTitle')}>
                {resendT('noSmtp')} {t('noMailBody')}
              </Alert>
            ) : null}
            {choosesTenant ? (
              <TenantField
                id={ids.tenant}
                value={chosenTenant}
                error={tenantError ?? undefined}
                onChange={(next) => {
                  setChosenTenant(next);
                  setTenantError(null);
                }}
              />
            ) : null}
            <Field id={ids.email} label={t('email')} error={errors.email?.message}>
              <Input type="email" autoComplete="off" {...fieldAria(ids.email, errors.email?.message)} {...register('email')} />
            </Field>
            <Field id={ids.name} label={t('name')} error={errors.name?.message}>
              <Input autoComplete="off" {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={ids.role} label={t('role')} error={errors.role?.message}>
                <Select {...fieldAria(ids.role, errors.role?.message)} {...register('role')}>
                  <RoleOptions roles={roles} />
                </Select>
              </Field>
              <Field id={ids.language} label={t('language')}>
                <Select id={ids.language} {...register('language')}>
                  <LanguageOptions />
                </Select>
              </Field>
            </div>
            <Field id={ids.password} label={t('password')} error={errors.password?.message} hint={t('passwordHint')}>
              <Input type="password" autoComplete="new-password" {...fieldAria(ids.password, errors.password?.message, true)} {...register('password')} />
            </Field>
            {joinsTeams ? (
              <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
                {offersTeams ? (
                  <TeamChoice
                    value={teamIds}
                    onChange={setTeamIds}
                    legend={t('teams')}
                    hint={t('teamsHint')}
                  />
                ) : null}
                <CheckboxField id={ids.restricted} label={t('restricted')} description={teamsT('access.restricted')} {...register('restricted')} />
              </div>
            ) : null}
          </div>
          <FormFooter pending={isSubmitting} onCancel={() => onOpenChange(false)} submitLabel={t('create')} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The tenant of a new user, among the tenants the switcher offers; a search narrows long lists. */
function TenantField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: { id: number; name: string } | null;
  error?: string;
  onChange: (tenant: { id: number; name: string } | null) => void;
}) {
  const t = useTranslations('users.form');
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 200);
  const query = useCustomerSelect({ text: debounced, page: 0, size: 50 });
  const options = query.data?.content ?? [];
  const total = query.data?.totalElements ?? 0;
  // Keep the chosen tenant listed while the search shows others.
  const listed = value && !options.some((c) => c.id === value.id) ? [value, ...options] : options;

  return (
    <Field id={id} label={t('tenant')} error={error} hint={total > options.length ? t('tenantsShown', { shown: options.length, total }) : undefined}>
      <div className="space-y-2">
        <Input type="search" aria-label={t('searchTenants')} placeholder={t('searchTenants')} value={text} onChange={(e) => setText(e.target.value)} />
        <Select
          {...fieldAria(id, error, total > options.length)}
          value={value ? String(value.id) : ''}
          onChange={(e) => {
            const picked = listed.find((c) => String(c.id) === e.target.value);
            onChange(picked ? { id: picked.id, name: picked.name } : null);
          }}
        >
          <option value="">{query.isPending ? t('loadingTenants') : t('chooseTenant')}</option>
          {listed.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}

export function EditUserDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const me = useCurrentUser();
  const update = useUpdateUser();
  const t = useTranslations('users.form');
  const teamsT = useTranslations('teams');
  const errorMessage = useErrorMessage();
  const schema = useMemo(() => editSchema(t), [t]);
  const [apiError, setApiError] = useState<string | null>(null);
  const ids = { name: useId(), role: useId(), language: useId(), restricted: useId(), readOnly: useId() };
  const roles = assignableRoles(me.role);
  const isSelf = user?.id === me.id;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<EditValues>({ resolver: zodResolver(schema) });

  useEffect(() => {
    if (user) {
      setApiError(null);
      reset({
        name: user.name ?? '',
        role: user.role,
        language: user.language ?? '',
        restricted: Boolean(user.restricted),
        readOnly: Boolean(user.readOnly),
      });
    }
  }, [user, reset]);

  const onSubmit = handleSubmit(async (values) => {
    if (!user) return;
    setApiError(null);
    // Only what changed: unchanged protected fields must not ask for a one-time code.
    const changes: UpdateUserInput = {};
    if (values.name.trim() !== (user.name ?? '')) changes.name = values.name.trim();
    if (values.role !== user.role) changes.role = values.role;
    if (values.language !== (user.language ?? '') && values.language) changes.language = values.language;
    if (values.restricted !== Boolean(user.restricted)) changes.restricted = values.restricted;
    if (values.readOnly !== Boolean(user.readOnly)) changes.readOnly = values.readOnly;
    try {
      if (Object.keys(changes).length > 0) await update.mutateAsync({ email: user.email, changes });
      onOpenChange(false);
    } catch (error) {
      if (!isCancelled(error)) setApiError(errorMessage(error));
    }
  });

  const roleChoices = user && !roles.includes(user.role) ? [user.role, ...roles] : roles;

  return (
    <Dialog open={user !== null} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent title={t('editTitle')} description={user?.email}>
        <form onSubmit={onSubmit} noValidate>
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <Field id={ids.name} label={t('name')} error={errors.name?.message}>
              <Input autoComplete="off" {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={ids.role} label={t('role')} hint={isSelf ? t('ownRole') : undefined}>
                <Select id={ids.role} disabled={isSelf} {...register('role')}>
                  <RoleOptions roles={roleChoices} />
                </Select>
              </Field>
              <Field id={ids.language} label={t('language')}>
                <Select id={ids.language} {...register('language')}>
                  <LanguageOptions allowNone />
                </Select>
              </Field>
            </div>
            <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
              <CheckboxField id={ids.restricted} label={t('restricted')} description={teamsT('access.restricted')} {...register('restricted')} />
              <CheckboxField id={ids.readOnly} label={t('readOnly')} description={t('readOnlyHint')} {...register('readOnly')} />
            </div>
          </div>
          <FormFooter pending={isSubmitting} onCancel={() => onOpenChange(false)} submitLabel={t('save')} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function displayName(user: User): string {
  return user.name ? `${user.name} (${user.email})` : user.email;
}

export function DeleteUserDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteUser();
  const t = useTranslations('users.deleteDialog');

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      destructive
      confirmLabel={t('confirm')}
      description={user ? t.rich('body', { name: displayName(user), strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span> }) : null}
      onConfirm={() => remove.mutateAsync(user!.email)}
    />
  );
}

export function ResetTotpDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateUser();
  const t = useTranslations('users.reset2fa');

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      confirmLabel={t('confirm')}
      description={user ? t.rich('body', { name: displayName(user), strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span> }) : null}
      onConfirm={() => update.mutateAsync({ email: user!.email, changes: { use2FA: false } })}
    />
  );
}

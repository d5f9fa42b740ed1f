'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldAria, Select } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input } from '@/components/ui/input';
import { TeamChoice } from '@/components/teams/team-choice';
import { ApiError } from '@/lib/api/client';
import type { Role, User } from '@/lib/api/types';
import { useCustomerSelect } from '@/lib/api/customers';
import { useCreateUser, useDeleteUser, useUpdateUser, type UpdateUserInput } from '@/lib/api/users';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useMailStatus } from '@/lib/api/mail';
import { assignableRoles } from '@/lib/auth/permissions';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';
import { useLabel, useLabelOptions } from '@/lib/i18n/labels';
import { useTenant } from '@/lib/tenant/tenant-context';
import { EMAIL_MAX, EMAIL_PATTERN } from '@/server/http/wire.schemas';
import { PASSWORD_MAX, PASSWORD_MIN, UserCreateSchema } from '@/server/modules/users/users.schemas';

/** The create form: the API's fields (`UserCreateSchema`), a password required here, and the tenant and teams the user joins. */
const createUserFormSchema = (choosesTenant: boolean) =>
  z.object({
    ...UserCreateSchema.pick({ name: true, role: true, language: true }).shape,
    // The API's e-mail rule, without its English message: the console words it (formMessages).
    email: z.email({ pattern: EMAIL_PATTERN }).max(EMAIL_MAX),
    password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
    restricted: z.boolean(),
    // Chosen only with every tenant (or a whole network) shown; the selected tenant otherwise.
    tenant: choosesTenant ? z.object({ id: z.number(), name: z.string() }) : z.object({ id: z.number(), name: z.string() }).nullable(),
    teamIds: z.array(z.string()),
  });

/** The edit form: the API's fields (`UserCreateSchema`; the update takes the same), every one filled. */
const editUserFormSchema = z.object({
  ...UserCreateSchema.pick({ name: true, role: true }).shape,
  language: z.string(),
  restricted: z.boolean(),
  readOnly: z.boolean(),
});

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
  const mail = useMailStatus();
  const t = useTranslations('users.form');
  const teamsT = useTranslations('teams');
  const resendT = useTranslations('users.resend');
  const schema = useMemo(() => createUserFormSchema(choosesTenant), [choosesTenant]);
  const tenantId = useId();
  // The e-mail of the last submit, for the message when it is taken.
  const submittedEmail = useRef('');
  // The chosen tenant's name, for the description above the form (the form holds the tenant itself).
  const [chosenName, setChosenName] = useState<string | null>(null);
  useEffect(() => {
    if (open) setChosenName(null);
  }, [open]);
  const target = choosesTenant ? chosenName : (tenant?.name ?? me.customerName ?? t('yourTenant'));

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('newTitle')}
      description={
        target
          ? t.rich('joins', { tenant: target, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : t('chooseAmong', { all: all.phrase })
      }
      schema={schema}
      required={{ name: t('enterName'), role: t('chooseRole'), tenant: t('chooseTenantError') }}
      values={{ email: '', name: '', role: 'VIEWER', password: '', language: 'en', restricted: false, tenant: null, teamIds: [] }}
      submitLabel={t('create')}
      onSubmit={async ({ tenant: chosenTenant, teamIds, restricted, ...values }) => {
        submittedEmail.current = values.email;
        // OWNER and ADMIN are above teams (spec 1): neither teams nor the restriction apply to them.
        const joinsTeams = !['OWNER', 'ADMIN'].includes(values.role);
        await create.mutateAsync({
          ...values,
          restricted: joinsTeams && restricted,
          teamIds: joinsTeams && !choosesTenant ? teamIds : [],
          customerId: choosesTenant ? chosenTenant?.id : undefined,
        });
      }}
      fieldError={(error) =>
        error instanceof ApiError && error.key === 'user.error.emailExists'
          ? { field: 'email', message: t('emailExists', { email: submittedEmail.current }) }
          : undefined
      }
    >
      {(fields, form) => {
        // OWNER and ADMIN are above teams (spec 1): neither teams nor the restriction apply to them.
        const joinsTeams = !['OWNER', 'ADMIN'].includes(form.watch('role'));
        // Teams are the tenant's: under "All tenants" they are offered once the tenant is the selected one.
        const offersTeams = joinsTeams && !choosesTenant;

        return (
          <>
            {mail.data?.smtpConfigured === false ? (
              <Alert tone="info" title={t('noMailTitle')}>
                {resendT('noSmtp')} {t('noMailBody')}
              </Alert>
            ) : null}
            {choosesTenant ? (
              <TenantField
                id={tenantId}
                value={form.watch('tenant')}
                error={form.getFieldState('tenant', form.formState).error?.message}
                onChange={(next) => {
                  setChosenName(next?.name ?? null);
                  form.setValue('tenant', next, { shouldValidate: form.formState.isSubmitted });
                }}
              />
            ) : null}
            {fields.text('email', { label: t('email'), type: 'email' })}
            {fields.text('name', { label: t('name') })}
            <div className="grid gap-4 sm:grid-cols-2">
              {fields.select('role', { label: t('role'), children: <RoleOptions roles={roles} /> })}
              {fields.select('language', { label: t('language'), children: <LanguageOptions /> })}
            </div>
            {fields.text('password', { label: t('password'), type: 'password', autoComplete: 'new-password', hint: t('passwordHint') })}
            {joinsTeams ? (
              <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
                {offersTeams ? (
                  <TeamChoice
                    value={form.watch('teamIds')}
                    onChange={(next) => form.setValue('teamIds', next)}
                    legend={t('teams')}
                    hint={t('teamsHint')}
                  />
                ) : null}
                {fields.checkbox('restricted', { label: t('restricted'), description: teamsT('access.restricted') })}
              </div>
            ) : null}
          </>
        );
      }}
    </FormDialog>
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
    <Field
      id={id}
      label={t('tenant')}
      error={error}
      hint={total > options.length ? t('tenantsShown', { shown: options.length, total }) : undefined}
    >
      <div className="space-y-2">
        <Input
          type="search"
          aria-label={t('searchTenants')}
          placeholder={t('searchTenants')}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
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
  const roleId = useId();
  const roles = assignableRoles(me.role);
  const isSelf = user?.id === me.id;
  const roleChoices = user && !roles.includes(user.role) ? [user.role, ...roles] : roles;

  return (
    <FormDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={t('editTitle')}
      description={user?.email}
      schema={editUserFormSchema}
      required={{ name: t('enterName') }}
      values={{
        name: user?.name ?? '',
        role: user?.role ?? 'VIEWER',
        language: user?.language ?? '',
        restricted: Boolean(user?.restricted),
        readOnly: Boolean(user?.readOnly),
      }}
      submitLabel={t('save')}
      onSubmit={async (values) => {
        if (!user) return;
        // Only what changed: unchanged protected fields must not ask for a one-time code.
        const changes: UpdateUserInput = {};
        if (values.name !== (user.name ?? '')) changes.name = values.name;
        if (values.role !== user.role) changes.role = values.role;
        if (values.language !== (user.language ?? '') && values.language) changes.language = values.language;
        if (values.restricted !== Boolean(user.restricted)) changes.restricted = values.restricted;
        if (values.readOnly !== Boolean(user.readOnly)) changes.readOnly = values.readOnly;
        if (Object.keys(changes).length > 0) await update.mutateAsync({ email: user.email, changes });
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: t('name') })}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={roleId} label={t('role')} hint={isSelf ? t('ownRole') : undefined}>
              <Select {...fieldAria(roleId, undefined, isSelf)} disabled={isSelf} {...form.register('role')}>
                <RoleOptions roles={roleChoices} />
              </Select>
            </Field>
            {fields.select('language', { label: t('language'), children: <LanguageOptions allowNone /> })}
          </div>
          <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
            {fields.checkbox('restricted', { label: t('restricted'), description: teamsT('access.restricted') })}
            {fields.checkbox('readOnly', { label: t('readOnly'), description: t('readOnlyHint') })}
          </div>
        </>
      )}
    </FormDialog>
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
      description={
        user
          ? t.rich('body', { name: displayName(user), strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span> })
          : null
      }
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
      description={
        user
          ? t.rich('body', { name: displayName(user), strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span> })
          : null
      }
      onConfirm={() => update.mutateAsync({ email: user!.email, changes: { use2FA: false } })}
    />
  );
}

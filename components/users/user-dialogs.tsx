'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, Field, fieldAria, FormFooter, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { RESTRICTED_MEANS } from '@/components/teams/access-words';
import { TeamChoice } from '@/components/teams/team-choice';
import { errorMessage, isCancelled } from '@/lib/api/protected';
import { LANGUAGES, roleLabel, type Role, type User } from '@/lib/api/types';
import { useCustomerSelect } from '@/lib/api/customers';
import { useCreateUser, useDeleteUser, useUpdateUser, type UpdateUserInput } from '@/lib/api/users';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useMailStatus } from '@/lib/api/mail';
import { NO_SMTP_NOTE } from '@/components/users/resend-invitation-dialog';
import { assignableRoles } from '@/lib/auth/permissions';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';
import { useTenant } from '@/lib/tenant/tenant-context';

const ROLE_VALUES = ['ADMIN', 'OWNER', 'TECHNICIAN', 'APPROVER', 'EDITOR', 'VIEWER', 'DEVICE_USER'] as const;

const createSchema = z.object({
  email: z.email('Enter a valid e-mail address'),
  name: z.string().trim().min(1, 'Enter a name').max(255),
  role: z.enum(ROLE_VALUES, 'Choose a role'),
  password: z.string().min(8, 'At least 8 characters').max(256, 'At most 256 characters'),
  language: z.string(),
  restricted: z.boolean(),
});
type CreateValues = z.infer<typeof createSchema>;

const editSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(255),
  role: z.enum(ROLE_VALUES),
  language: z.string(),
  restricted: z.boolean(),
  readOnly: z.boolean(),
});
type EditValues = z.infer<typeof editSchema>;

function RoleOptions({ roles }: { roles: Role[] }) {
  return roles.map((role) => (
    <option key={role} value={role}>
      {roleLabel(role)}
    </option>
  ));
}

function LanguageOptions({ allowNone }: { allowNone?: boolean }) {
  return (
    <>
      {allowNone ? <option value="">Not set</option> : null}
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
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
  const ids = { email: useId(), name: useId(), role: useId(), password: useId(), language: useId(), tenant: useId(), restricted: useId() };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
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
      setTenantError('Choose the tenant the user belongs to');

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
      const message = errorMessage(error);
      if (/e-?mail/i.test(message) && /exist|taken|use/i.test(message)) setError('email', { message });
      else setApiError(message);
    }
  });

  const target = choosesTenant ? chosenTenant?.name : (tenant?.name ?? me.customerName ?? 'your tenant');

  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent
        title="New user"
        description={
          target ? (
            <>
              The user joins <span className="font-medium text-zinc-700">{target}</span>.
            </>
          ) : (
            `Choose the user's tenant among ${all.phrase}.`
          )
        }
      >
        <form onSubmit={onSubmit} noValidate>
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            {mail.data?.smtpConfigured === false ? (
              <Alert tone="info" title="The invitation e-mail will not be sent.">
                {NO_SMTP_NOTE} Share the password yourself, or copy a password-setup link from the user&apos;s menu (Resend invitation).
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
            <Field id={ids.email} label="E-mail" error={errors.email?.message}>
              <Input type="email" autoComplete="off" {...fieldAria(ids.email, errors.email?.message)} {...register('email')} />
            </Field>
            <Field id={ids.name} label="Name" error={errors.name?.message}>
              <Input autoComplete="off" {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={ids.role} label="Role" error={errors.role?.message}>
                <Select {...fieldAria(ids.role, errors.role?.message)} {...register('role')}>
                  <RoleOptions roles={roles} />
                </Select>
              </Field>
              <Field id={ids.language} label="Language">
                <Select id={ids.language} {...register('language')}>
                  <LanguageOptions />
                </Select>
              </Field>
            </div>
            <Field id={ids.password} label="Password" error={errors.password?.message} hint="At least 8 characters. Share it with the user safely.">
              <Input type="password" autoComplete="new-password" {...fieldAria(ids.password, errors.password?.message, true)} {...register('password')} />
            </Field>
            {joinsTeams ? (
              <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
                {offersTeams ? (
                  <TeamChoice
                    value={teamIds}
                    onChange={setTeamIds}
                    legend="Teams"
                    hint="The user joins these teams and works with what is assigned to them."
                  />
                ) : null}
                <CheckboxField id={ids.restricted} label="Restricted" description={RESTRICTED_MEANS} {...register('restricted')} />
              </div>
            ) : null}
          </div>
          <FormFooter pending={isSubmitting} onCancel={() => onOpenChange(false)} submitLabel="Create user" />
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
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 200);
  const query = useCustomerSelect({ text: debounced, page: 0, size: 50 });
  const options = query.data?.content ?? [];
  const total = query.data?.totalElements ?? 0;
  // Keep the chosen tenant listed while the search shows others.
  const listed = value && !options.some((c) => c.id === value.id) ? [value, ...options] : options;

  return (
    <Field id={id} label="Tenant" error={error} hint={total > options.length ? `${options.length} of ${total} tenants shown; search to narrow.` : undefined}>
      <div className="space-y-2">
        <Input type="search" aria-label="Search tenants" placeholder="Search tenants" value={text} onChange={(e) => setText(e.target.value)} />
        <Select
          {...fieldAria(id, error, total > options.length)}
          value={value ? String(value.id) : ''}
          onChange={(e) => {
            const picked = listed.find((c) => String(c.id) === e.target.value);
            onChange(picked ? { id: picked.id, name: picked.name } : null);
          }}
        >
          <option value="">{query.isPending ? 'Loading tenants…' : 'Choose a tenant'}</option>
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
  const [apiError, setApiError] = useState<string | null>(null);
  const ids = { name: useId(), role: useId(), language: useId(), restricted: useId(), readOnly: useId() };
  const roles = assignableRoles(me.role);
  const isSelf = user?.id === me.id;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<EditValues>({ resolver: zodResolver(editSchema) });

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
      <DialogContent title="Edit user" description={user?.email}>
        <form onSubmit={onSubmit} noValidate>
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <Field id={ids.name} label="Name" error={errors.name?.message}>
              <Input autoComplete="off" {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={ids.role} label="Role" hint={isSelf ? 'You cannot change your own role.' : undefined}>
                <Select id={ids.role} disabled={isSelf} {...register('role')}>
                  <RoleOptions roles={roleChoices} />
                </Select>
              </Field>
              <Field id={ids.language} label="Language">
                <Select id={ids.language} {...register('language')}>
                  <LanguageOptions allowNone />
                </Select>
              </Field>
            </div>
            <div className="space-y-3 rounded-md bg-zinc-50 p-3.5">
              <CheckboxField id={ids.restricted} label="Restricted" description={RESTRICTED_MEANS} {...register('restricted')} />
              <CheckboxField id={ids.readOnly} label="Read-only" description="Can look at everything but change nothing." {...register('readOnly')} />
            </div>
          </div>
          <FormFooter pending={isSubmitting} onCancel={() => onOpenChange(false)} submitLabel="Save changes" />
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

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title="Delete user"
      destructive
      confirmLabel="Delete user"
      description={
        user ? (
          <>
            <span className="font-medium text-zinc-800">{displayName(user)}</span> will be deleted and signed out everywhere. This cannot be
            undone.
          </>
        ) : null
      }
      onConfirm={() => remove.mutateAsync(user!.email)}
    />
  );
}

export function ResetTotpDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateUser();

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title="Reset two-factor authentication"
      confirmLabel="Reset 2FA"
      description={
        user ? (
          <>
            <span className="font-medium text-zinc-800">{displayName(user)}</span> will sign in with the password alone until they enrol
            an authenticator app again.
          </>
        ) : null
      }
      onConfirm={() => update.mutateAsync({ email: user!.email, changes: { use2FA: false } })}
    />
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, fieldAria, FormFooter, Select } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input } from '@/components/ui/input';
import { useNetworkOwnerChange, useNetworkOwners, useSaveCustomer, type CustomerWrite } from '@/lib/api/customers';
import { ApiError } from '@/lib/api/client';
import type { Customer } from '@/lib/api/types';
import { CustomerCreateSchema, licenseTiers, verticals } from '@/server/modules/customers/customers.schemas';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabelOptions } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';

const GIB = 1024 ** 3;
/** The form's fields: the API's (`CustomerCreateSchema`), the numbers as the text typed ('' = none). */
const customerFormSchema = (t: Translate<'customers.form'>) => {
  const wholeNumber = z.string().trim().regex(/^\d*$/, t('wholeNumber'));
  const { name, comment, country, location, type } = CustomerCreateSchema.shape;

  return z.object({
    name,
    licenseTier: z.enum(licenseTiers),
    vertical: z.union([z.literal(''), z.enum(verticals)]),
    comment,
    country,
    location,
    type,
    createAsSubreseller: z.boolean(),
    ownerSubresellerId: z.string(),
    freeLicenses: wholeNumber,
    browserSessionLicenses: wholeNumber,
    deviceSessionLimit: wholeNumber,
    storageGiB: z
      .string()
      .trim()
      .regex(/^(\d+(\.\d+)?)?$/, t('storageNumber')),
    needsToBeInvoiced: z.boolean(),
  });
};
type Values = z.input<ReturnType<typeof customerFormSchema>>;
type Output = z.output<ReturnType<typeof customerFormSchema>>;

function toValues(customer: Customer | null): Values {
  return {
    name: customer?.name ?? '',
    licenseTier: customer?.licenseTier ?? 'ENTERPRISE',
    vertical: customer?.vertical ?? '',
    comment: customer?.comment ?? '',
    country: customer?.country ?? '',
    location: customer?.location ?? '',
    type: customer?.type ?? '',
    createAsSubreseller: false,
    ownerSubresellerId: '',
    freeLicenses: customer?.freeLicenses != null ? String(customer.freeLicenses) : '',
    browserSessionLicenses: customer?.browserSessionLicenses != null ? String(customer.browserSessionLicenses) : '',
    deviceSessionLimit: customer?.deviceSessionLimit != null ? String(customer.deviceSessionLimit) : '',
    storageGiB: customer?.storageSize != null ? String(Math.round((customer.storageSize / GIB) * 100) / 100) : '',
    needsToBeInvoiced: Boolean(customer?.needsToBeInvoiced),
  };
}

const num = (s: string) => (s.trim() === '' ? undefined : Number(s));

function toCustomerBody(values: Output, { isAdmin, isCreate }: { isAdmin: boolean; isCreate: boolean }): CustomerWrite {
  // Plain strings are not nullable in the API: an edit clears one with ''.
  const text = (s: string | undefined) => (!s?.trim() ? (isCreate ? undefined : '') : s.trim());
  const body: CustomerWrite = {
    name: values.name,
    licenseTier: values.licenseTier,
    vertical: values.vertical || undefined,
    comment: text(values.comment),
    country: text(values.country),
    location: text(values.location),
    type: text(values.type),
  };
  if (isAdmin) {
    body.freeLicenses = num(values.freeLicenses);
    body.browserSessionLicenses = num(values.browserSessionLicenses);
    body.deviceSessionLimit = num(values.deviceSessionLimit);
    const gib = num(values.storageGiB);
    body.storageSize = gib === undefined ? (isCreate ? undefined : null) : Math.round(gib * GIB);
    body.needsToBeInvoiced = values.needsToBeInvoiced;
    if (isCreate) {
      if (values.createAsSubreseller) body.createAsSubreseller = true;
      if (values.ownerSubresellerId) body.ownerSubresellerId = Number(values.ownerSubresellerId);
    }
  }
  // PUT is partial and the API rejects null for plain strings it does not clear: drop undefined keys.
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as CustomerWrite;
}

/** Create (customer null) or edit a customer; ADMIN-only fields only for ADMIN, tiers limited for a network owner. */
export function CustomerFormDialog({
  open,
  customer,
  isAdmin,
  onOpenChange,
}: {
  open: boolean;
  customer: Customer | null;
  isAdmin: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const isCreate = customer === null;
  const save = useSaveCustomer();
  const owners = useNetworkOwners({ enabled: open && isAdmin && isCreate });
  const t = useTranslations('customers.form');
  const schema = useMemo(() => customerFormSchema(t), [t]);
  const allTiers = useLabelOptions('licenseTier');
  const verticalOptions = useLabelOptions('vertical');
  const ownerId = useId();
  // The name of the last submit, for the message when it is taken.
  const submittedName = useRef('');
  // A network owner may only give Essential or Business (spec 3).
  const tiers = isAdmin ? allTiers : allTiers.filter((tier) => tier.value !== 'ENTERPRISE');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={isCreate ? t('newTitle') : t('editTitle', { name: customer.name })}
      className="top-[6vh] max-w-2xl"
      bodyClassName="max-h-[70vh] space-y-4 overflow-y-auto px-5 py-4"
      schema={schema}
      required={{ name: t('enterName') }}
      values={isCreate && !isAdmin ? { ...toValues(null), licenseTier: 'BUSINESS' } : toValues(customer)}
      submitLabel={isCreate ? t('create') : t('save')}
      onSubmit={async (values) => {
        submittedName.current = values.name;
        await save.mutateAsync({ id: customer?.id, body: toCustomerBody(values, { isAdmin, isCreate }) });
      }}
      fieldError={(error) =>
        error instanceof ApiError && error.key === 'customer.error.nameExists'
          ? { field: 'name', message: t('nameExists', { name: submittedName.current }) }
          : undefined
      }
    >
      {(fields, form) => {
        const tierValue = form.watch('licenseTier');
        const tierChoices = tiers.some((tier) => tier.value === tierValue)
          ? tiers
          : [...tiers, allTiers.find((tier) => tier.value === tierValue)!];
        const number = (
          name: 'freeLicenses' | 'browserSessionLicenses' | 'deviceSessionLimit' | 'storageGiB',
          label: string,
          hint?: string,
        ) => fields.text(name, { label, hint, inputMode: 'decimal' });

        return (
          <>
            {fields.text('name', { label: t('name'), autoFocus: true })}
            <div className="grid gap-4 sm:grid-cols-2">
              {fields.select('licenseTier', {
                label: t('tier'),
                children: tierChoices.map((tier) => (
                  <option key={tier.value} value={tier.value}>
                    {tier.label}
                  </option>
                )),
              })}
              {fields.select('vertical', {
                label: t('vertical'),
                children: (
                  <>
                    <option value="">{t('notSet')}</option>
                    {verticalOptions.map((v) => (
                      <option key={v.value} value={v.value}>
                        {v.label}
                      </option>
                    ))}
                  </>
                ),
              })}
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              {fields.text('country', { label: t('country') })}
              {fields.text('location', { label: t('location') })}
              {fields.text('type', { label: t('type') })}
            </div>
            {fields.textarea('comment', { label: t('comment'), rows: 2 })}
            {isAdmin ? (
              <fieldset className="space-y-4 rounded-lg border border-zinc-200 p-4">
                <legend className="px-1 text-sm font-medium text-zinc-700">{t('licensing')}</legend>
                <div className="grid gap-4 sm:grid-cols-2">
                  {number('freeLicenses', t('freeLicenses'))}
                  {number('browserSessionLicenses', t('browserSessionLicenses'))}
                  {number('deviceSessionLimit', t('deviceSessionLimit'), t('deviceSessionHint'))}
                  {number('storageGiB', t('storage'), t('storageHint'))}
                </div>
                {fields.checkbox('needsToBeInvoiced', { label: t('invoiced') })}
                {isCreate ? (
                  <>
                    {fields.checkbox('createAsSubreseller', { label: t('createAsOwner'), description: t('createAsOwnerHint') })}
                    <Field id={ownerId} label={t('networkOwner')} hint={t('networkOwnerHint')}>
                      <Select {...fieldAria(ownerId, undefined, true)} disabled={owners.isPending} {...form.register('ownerSubresellerId')}>
                        <option value="">{t('none')}</option>
                        {owners.data?.content.map((o) => (
                          <option key={o.id} value={o.id}>
                            {o.name}
                          </option>
                        ))}
                      </Select>
                    </Field>
                  </>
                ) : null}
              </fieldset>
            ) : null}
          </>
        );
      }}
    </FormDialog>
  );
}

function toDateInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');

  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The expiration date: the end of the chosen local day, or none. */
export function ExpirationDialog({ customer, onOpenChange }: { customer: Customer | null; onOpenChange: (open: boolean) => void }) {
  const save = useSaveCustomer();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const t = useTranslations('customers.expiration');
  const errorMessage = useErrorMessage();

  useEffect(() => {
    setValue(toDateInput(customer?.expirationDate));
    setError(null);
  }, [customer]);

  async function submit(next: string | null) {
    if (!customer) return;
    setError(null);
    try {
      await save.mutateAsync({ id: customer.id, body: { expirationDate: next ? new Date(`${next}T23:59:59`).toISOString() : null } });
      onOpenChange(false);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <Dialog open={customer !== null} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent title={t('title')} description={customer ? t('description', { name: customer.name }) : undefined}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit(value || null);
          }}
        >
          <div className="space-y-4 px-5 py-4">
            <Field id={id} label={t('label')} hint={t('hint')}>
              <Input id={id} type="date" value={value} onChange={(e) => setValue(e.target.value)} aria-describedby={`${id}-hint`} />
            </Field>
            {error ? <Alert>{error}</Alert> : null}
          </div>
          <FormFooter
            pending={save.isPending}
            onCancel={() => onOpenChange(false)}
            submitLabel={t('save')}
            extra={
              customer?.expirationDate ? (
                <Button variant="ghost" className="mr-auto" onClick={() => void submit(null)} disabled={save.isPending}>
                  {t('remove')}
                </Button>
              ) : null
            }
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Moves a customer under a network owner, or out of its current one. */
export function MoveDialog({ customer, onOpenChange }: { customer: Customer | null; onOpenChange: (open: boolean) => void }) {
  const change = useNetworkOwnerChange();
  const owners = useNetworkOwners({ enabled: customer !== null });
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const t = useTranslations('customers.move');
  const errorMessage = useErrorMessage();

  useEffect(() => {
    setTarget(customer?.ownerSubresellerId ? String(customer.ownerSubresellerId) : '');
    setError(null);
  }, [customer]);

  const choices = (owners.data?.content ?? []).filter((o) => o.id !== customer?.id);

  return (
    <Dialog open={customer !== null} onOpenChange={(next) => !change.isPending && onOpenChange(next)}>
      <DialogContent title={t('title')} description={customer ? t('description', { name: customer.name }) : undefined}>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!customer) return;
            setError(null);
            try {
              await change.mutateAsync({ id: customer.id, action: 'move', subresellerId: target ? Number(target) : null });
              onOpenChange(false);
            } catch (err) {
              setError(errorMessage(err));
            }
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {owners.isError ? <Alert>{errorMessage(owners.error)}</Alert> : null}
            <Field id={id} label={t('label')}>
              <Select id={id} value={target} onChange={(e) => setTarget(e.target.value)} disabled={owners.isPending}>
                <option value="">{t('none')}</option>
                {choices.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </Select>
            </Field>
            {owners.isSuccess && choices.length === 0 ? <p className="text-sm text-zinc-500">{t('noOwners')}</p> : null}
            {error ? <Alert>{error}</Alert> : null}
          </div>
          <FormFooter
            pending={change.isPending}
            onCancel={() => onOpenChange(false)}
            submitLabel={t('submit')}
            submitDisabled={owners.isPending}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useMemo, type ReactNode } from 'react';
import { z } from 'zod';
import { CustomerField, type CustomerChoice } from '@/components/licences/customer-field';
import { TemplateFields, templateBody, templateRules, templateShape, templateValues } from '@/components/licences/template-fields';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import {
  licenseTypes,
  useCreateLicenseOrder,
  useDeleteLicenseOrder,
  useLicensePackages,
  useOrderLicences,
  useUpdateLicenseOrder,
  type LicenseOrder,
} from '@/lib/api/licences';
import { useLabel } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { LicenseOrderCustomerCreateSchema } from '@/server/modules/licences/licences.schemas';

const strong = (chunks: ReactNode) => <span className="font-medium text-zinc-900">{chunks}</span>;

/** A count of licences as typed: a whole number the API takes (its own rule, from 1 to its cap). */
const countField = (t: Translate<'licences.order'>) =>
  z
    .string()
    .trim()
    .regex(/^[1-9]\d*$/, t('countInvalid'))
    .refine((value) => LicenseOrderCustomerCreateSchema.shape.deviceLicenseCount.safeParse(Number(value)).success, t('countInvalid'));

const customerField = z.object({ id: z.number(), name: z.string() }).nullable();

// ---------------------------------------------------------------------------------------------------------------
// Ordering (a tenant's OWNER, a network owner's OWNER for a member): createAsCustomer, unapproved.

const orderSchema = (t: Translate<'licences.order'>) =>
  z.object({
    customer: customerField,
    deviceLicenseCount: countField(t),
    licenseType: z.union([z.literal(''), z.enum(licenseTypes)]),
    poNumber: z.string().trim().max(255),
    comment: z.string().trim().max(4000),
  });

/**
 * "Order licences": how many, of which type (or the provider's choice), a PO number and a comment. The order awaits
 * the super admin's approval. `chooseCustomer`: a network owner picks the member (none: its own customer).
 */
export function OrderLicencesDialog({
  open,
  onOpenChange,
  chooseCustomer,
  onOrdered,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  chooseCustomer: boolean;
  onOrdered: (order: LicenseOrder) => void;
}) {
  const t = useTranslations('licences.order');
  const customerWords = useTranslations('licences.customer');
  const label = useLabel();
  const schema = useMemo(() => orderSchema(t), [t]);
  const order = useOrderLicences();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t('description')}
      schema={schema}
      required={{ deviceLicenseCount: t('enterCount') }}
      values={{ customer: null, deviceLicenseCount: '', licenseType: '', poNumber: '', comment: '' }}
      submitLabel={t('submit')}
      onSubmit={async (values) => {
        const created = await order.mutateAsync({
          ...(values.customer ? { customerId: values.customer.id } : {}),
          orderDate: new Date().toISOString(),
          deviceLicenseCount: Number(values.deviceLicenseCount),
          ...(values.licenseType ? { licenseType: values.licenseType } : {}),
          ...(values.poNumber ? { poNumber: values.poNumber } : {}),
          ...(values.comment ? { comment: values.comment } : {}),
        });
        onOrdered(created);
      }}
    >
      {(fields, form) => (
        <>
          {chooseCustomer ? (
            <CustomerField
              value={form.watch('customer')}
              emptyLabel={customerWords('own')}
              onChange={(customer) => form.setValue('customer', customer, { shouldDirty: true })}
            />
          ) : null}
          {fields.text('deviceLicenseCount', { label: t('count'), inputMode: 'numeric', autoFocus: true, placeholder: '5' })}
          {fields.select('licenseType', {
            label: t('type'),
            hint: t('typeHint'),
            children: (
              <>
                <option value="">{t('typeAny')}</option>
                {licenseTypes.map((type) => (
                  <option key={type} value={type}>
                    {label('licenseType', type)}
                  </option>
                ))}
              </>
            ),
          })}
          {fields.text('poNumber', { label: t('poNumber'), hint: t('poHint') })}
          {fields.textarea('comment', { label: t('comment'), rows: 2 })}
        </>
      )}
    </FormDialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The super admin's order for a customer: a package or a priced template, maybe approved at once.

const createSchema = (t: Translate<'licences.order'>, template: Translate<'licences.template'>, customerRequired: string) =>
  z
    .object({
      customer: customerField,
      deviceLicenseCount: countField(t),
      licensePackageId: z.string(),
      ...templateShape(template),
      poNumber: z.string().trim().max(255),
      comment: z.string().trim().max(4000),
      approved: z.boolean(),
    })
    .superRefine((value, ctx) => {
      if (!value.customer) ctx.addIssue({ code: 'custom', path: ['customer'], message: customerRequired });
      if (!value.licensePackageId) templateRules(value, ctx, template, { complete: true });
    });

/** ADMIN: a new order for a customer (the tenant chosen in the switcher, or one picked here). */
export function CreateOrderDialog({
  open,
  onOpenChange,
  tenant,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tenant: CustomerChoice | null;
  onCreated: (order: LicenseOrder) => void;
}) {
  const t = useTranslations('licences.order');
  const create = useTranslations('licences.create');
  const template = useTranslations('licences.template');
  const customerWords = useTranslations('licences.customer');
  const schema = useMemo(() => createSchema(t, template, customerWords('required')), [t, template, customerWords]);
  const packages = useLicensePackages({ page: 0, size: 100, sort: 'name,asc', text: '' }, { enabled: open });
  const save = useCreateLicenseOrder();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={create('title')}
      description={create('description')}
      className="sm:max-w-xl"
      schema={schema}
      required={{ deviceLicenseCount: t('enterCount') }}
      values={{
        customer: tenant,
        deviceLicenseCount: '',
        licensePackageId: '',
        ...templateValues({}),
        poNumber: '',
        comment: '',
        approved: false,
      }}
      submitLabel={create('submit')}
      onSubmit={async ({
        customer,
        licensePackageId,
        licenseType,
        licensePayType,
        recurrenceType,
        frequency,
        pricePerDevice,
        currency,
        ...values
      }) => {
        const created = await save.mutateAsync({
          customerId: customer!.id,
          orderDate: new Date().toISOString(),
          deviceLicenseCount: Number(values.deviceLicenseCount),
          ...(licensePackageId
            ? { licensePackageId: Number(licensePackageId) }
            : templateBody({ licenseType, licensePayType, recurrenceType, frequency, pricePerDevice, currency })),
          ...(values.poNumber ? { poNumber: values.poNumber } : {}),
          ...(values.comment ? { comment: values.comment } : {}),
          ...(values.approved ? { approved: true } : {}),
        });
        onCreated(created);
      }}
    >
      {(fields, form) => (
        <>
          <CustomerField
            value={form.watch('customer')}
            error={form.getFieldState('customer', form.formState).error?.message}
            onChange={(customer) => form.setValue('customer', customer, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          />
          {fields.text('deviceLicenseCount', { label: t('count'), inputMode: 'numeric', placeholder: '5' })}
          {fields.select('licensePackageId', {
            label: create('package'),
            hint: create('packageHint'),
            children: (
              <>
                <option value="">{create('noPackage')}</option>
                {(packages.data?.content ?? []).map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name}
                  </option>
                ))}
              </>
            ),
          })}
          {form.watch('licensePackageId') ? null : <TemplateFields fields={fields} form={form} />}
          {fields.text('poNumber', { label: t('poNumber') })}
          {fields.textarea('comment', { label: t('comment'), rows: 2 })}
          {fields.checkbox('approved', { label: create('approved'), description: create('approvedHint') })}
        </>
      )}
    </FormDialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Approving: a confirmation that also asks for what the order still lacks (a tenant's order names no pay type).

const approveSchema = (template: Translate<'licences.template'>) =>
  z.object(templateShape(template)).superRefine((value, ctx) => templateRules(value, ctx, template, { complete: true }));

/** Whether an order can be approved as it is (type, pay type, and a subscription's recurrence). */
function isComplete(order: LicenseOrder): boolean {
  return Boolean(order.licenseType && order.licensePayType && (order.licensePayType !== 'SUBSCRIPTION' || order.recurrence));
}

export function ApproveOrderDialog({
  order,
  onOpenChange,
  onApproved,
}: {
  order: LicenseOrder | null;
  onOpenChange: (open: boolean) => void;
  onApproved: (order: LicenseOrder) => void;
}) {
  const t = useTranslations('licences.approve');
  const template = useTranslations('licences.template');
  const format = useFormat();
  const schema = useMemo(() => approveSchema(template), [template]);
  const update = useUpdateLicenseOrder();
  const complete = order ? isComplete(order) : true;
  // A tenant's order says only what it asked for: ONETIME is the likelier pay type to start from.
  const values = templateValues(order ? { ...order, licensePayType: order.licensePayType ?? 'ONETIME' } : {});

  return (
    <FormDialog
      open={order !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        count: order?.deviceLicenseCount ?? 0,
        customer: order?.customer?.name ?? `#${order?.customerId ?? ''}`,
        date: format.date(order?.orderDate),
        strong,
      })}
      schema={schema}
      values={values}
      submitLabel={t('submit')}
      onSubmit={async (next) => {
        if (!order) return;
        const approved = await update.mutateAsync({ id: order.id, changes: { ...(complete ? {} : templateBody(next)), approved: true } });
        onApproved(approved);
      }}
    >
      {(fields, form) =>
        complete ? (
          <p className="text-sm text-zinc-600">{t('immutable')}</p>
        ) : (
          <>
            <p className="text-sm text-zinc-600">{t('missing')}</p>
            <TemplateFields fields={fields} form={form} />
          </>
        )
      }
    </FormDialog>
  );
}

/** Rejecting (ADMIN) or withdrawing (the tenant) an unapproved order: it is deleted. */
export function DeleteOrderDialog({
  order,
  mode,
  onOpenChange,
  onDeleted,
}: {
  order: LicenseOrder | null;
  mode: 'reject' | 'delete';
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}) {
  const t = useTranslations(mode === 'reject' ? 'licences.reject' : 'licences.delete');
  const format = useFormat();
  const remove = useDeleteLicenseOrder();

  return (
    <ConfirmDialog
      open={order !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        count: order?.deviceLicenseCount ?? 0,
        customer: order?.customer?.name ?? `#${order?.customerId ?? ''}`,
        date: format.date(order?.orderDate),
        strong,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (!order) return;
        await remove.mutateAsync(order.id);
        onDeleted();
      }}
    />
  );
}

// ---------------------------------------------------------------------------------------------------------------
// ADMIN: the fields an approved order keeps changeable (comment and the invoice fields).

const editSchema = z.object({
  comment: z.string().trim().max(4000),
  invoiceStartDate: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/),
  managedInInvoiceSystem: z.boolean(),
  invoiceSystemId: z.string().trim().max(255),
});

export function EditOrderDialog({ order, onOpenChange }: { order: LicenseOrder | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('licences.edit');
  const format = useFormat();
  const update = useUpdateLicenseOrder();

  return (
    <FormDialog
      open={order !== null}
      onOpenChange={onOpenChange}
      title={t('title', { date: format.date(order?.orderDate) })}
      description={order?.customer?.name}
      schema={editSchema}
      values={{
        comment: order?.comment ?? '',
        invoiceStartDate: order?.invoiceStartDate?.slice(0, 10) ?? '',
        managedInInvoiceSystem: Boolean(order?.managedInInvoiceSystem),
        invoiceSystemId: order?.invoiceSystemId ?? '',
      }}
      submitLabel={t('submit')}
      onSubmit={async (values) => {
        if (!order) return;
        // "" removes a value (the API's partial update); the date is the day's start in UTC, as invoices count days.
        await update.mutateAsync({
          id: order.id,
          changes: {
            comment: values.comment,
            invoiceStartDate: values.invoiceStartDate ? `${values.invoiceStartDate}T00:00:00.000Z` : '',
            managedInInvoiceSystem: values.managedInInvoiceSystem,
            invoiceSystemId: values.invoiceSystemId,
          },
        });
      }}
    >
      {(fields) => (
        <>
          {fields.textarea('comment', { label: t('comment'), rows: 2 })}
          {fields.text('invoiceStartDate', { label: t('invoiceStartDate'), type: 'date', hint: t('invoiceStartDateHint') })}
          {fields.checkbox('managedInInvoiceSystem', { label: t('managed'), description: t('managedHint') })}
          {fields.text('invoiceSystemId', { label: t('invoiceSystemId') })}
        </>
      )}
    </FormDialog>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import type { FormFields } from '@/components/ui/form-dialog';
import { licensePayTypes, licenseTypes, recurrenceTypes, type LicensePackage } from '@/lib/api/licences';
import { useLabel } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import type { Recurrence } from '@/server/modules/licences/licences.schemas';

/*
 * The tier and pricing of a package, or of an order without one (spec 3 "License order"): type, pay type, the
 * recurrence of a SUBSCRIPTION, price and currency. The form holds them as typed text; the rules are the API's
 * (licences.schemas.ts templateIssues), said in the console's words before the request.
 */

export const templateShape = (t: Translate<'licences.template'>) => ({
  licenseType: z.union([z.literal(''), z.enum(licenseTypes)]),
  licensePayType: z.union([z.literal(''), z.enum(licensePayTypes)]),
  recurrenceType: z.union([z.literal(''), z.enum(recurrenceTypes)]),
  frequency: z
    .string()
    .trim()
    .regex(/^([1-9]\d{0,2}|1000)?$/, t('frequencyInvalid')),
  pricePerDevice: z
    .string()
    .trim()
    .regex(/^(\d{1,10}([.,]\d{1,4})?)?$/, t('priceInvalid')),
  currency: z
    .string()
    .trim()
    .regex(/^([A-Za-z]{3})?$/, t('currencyInvalid')),
});

export type TemplateValues = { [K in keyof ReturnType<typeof templateShape>]: z.infer<ReturnType<typeof templateShape>[K]> };

type IssueContext = { addIssue: (issue: { code: 'custom'; path: string[]; message: string }) => void };

/** The API's rules between the fields; `complete`: type and pay type are required (no package stands in). */
export function templateRules(
  value: TemplateValues,
  ctx: IssueContext,
  t: Translate<'licences.template'>,
  options: { complete: boolean },
): void {
  const issue = (field: keyof TemplateValues, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (options.complete && !value.licenseType) issue('licenseType', t('typeRequired'));
  if (options.complete && !value.licensePayType) issue('licensePayType', t('payTypeRequired'));
  if (value.licensePayType === 'SUBSCRIPTION' && !value.recurrenceType) issue('recurrenceType', t('recurrenceRequired'));
  if (value.licensePayType === 'SUBSCRIPTION' && !value.frequency) issue('frequency', t('frequencyRequired'));
  if (value.pricePerDevice && !value.currency) issue('currency', t('currencyRequired'));
}

/** The form's text as the API's fields (nothing for what is empty; a recurrence only for a SUBSCRIPTION). */
export function templateBody(value: TemplateValues) {
  const recurrence: Recurrence | undefined =
    value.licensePayType === 'SUBSCRIPTION' && value.recurrenceType
      ? { recurrenceType: value.recurrenceType, frequency: Number(value.frequency || '1') }
      : undefined;

  return {
    ...(value.licenseType ? { licenseType: value.licenseType } : {}),
    ...(value.licensePayType ? { licensePayType: value.licensePayType } : {}),
    ...(recurrence ? { recurrence } : {}),
    ...(value.pricePerDevice ? { pricePerDevice: Number(value.pricePerDevice.replace(',', '.')) } : {}),
    ...(value.currency ? { currency: value.currency.toUpperCase() } : {}),
  };
}

/** A package's or an order's template as the form's text. */
export function templateValues(
  source: Partial<Pick<LicensePackage, 'licenseType' | 'licensePayType' | 'recurrence' | 'pricePerDevice' | 'currency'>>,
): TemplateValues {
  return {
    licenseType: source.licenseType ?? '',
    licensePayType: source.licensePayType ?? '',
    recurrenceType: source.recurrence?.recurrenceType ?? '',
    frequency: source.recurrence ? String(source.recurrence.frequency) : '',
    pricePerDevice: source.pricePerDevice !== undefined ? String(source.pricePerDevice) : '',
    currency: source.currency ?? '',
  };
}

/** The template's controls; the recurrence only while the pay type is SUBSCRIPTION. */
export function TemplateFields<TValues extends FieldValues & TemplateValues>({
  fields,
  form,
  showPrice = true,
}: {
  fields: FormFields<TValues>;
  form: UseFormReturn<TValues, unknown, unknown>;
  showPrice?: boolean;
}) {
  const t = useTranslations('licences.template');
  const label = useLabel();
  const field = (name: keyof TemplateValues) => name as Path<TValues>;
  const isSubscription = form.watch(field('licensePayType')) === 'SUBSCRIPTION';

  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.select(field('licenseType'), {
          label: t('type'),
          children: (
            <>
              <option value="">{t('choose')}</option>
              {licenseTypes.map((type) => (
                <option key={type} value={type}>
                  {label('licenseType', type)}
                </option>
              ))}
            </>
          ),
        })}
        {fields.select(field('licensePayType'), {
          label: t('payType'),
          children: (
            <>
              <option value="">{t('choose')}</option>
              {licensePayTypes.map((type) => (
                <option key={type} value={type}>
                  {label('licensePayType', type)}
                </option>
              ))}
            </>
          ),
        })}
      </div>
      {isSubscription ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.text(field('frequency'), { label: t('frequency'), inputMode: 'numeric', placeholder: '1' })}
          {fields.select(field('recurrenceType'), {
            label: t('recurrenceType'),
            children: (
              <>
                <option value="">{t('choose')}</option>
                {recurrenceTypes.map((type) => (
                  <option key={type} value={type}>
                    {label('recurrenceType', type)}
                  </option>
                ))}
              </>
            ),
          })}
        </div>
      ) : null}
      {showPrice ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.text(field('pricePerDevice'), { label: t('price'), inputMode: 'decimal', placeholder: '12.50', hint: t('priceHint') })}
          {fields.text(field('currency'), { label: t('currency'), placeholder: 'EUR' })}
        </div>
      ) : null}
    </>
  );
}

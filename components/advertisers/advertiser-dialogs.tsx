'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import {
  useCreateAdvertiser,
  useDeleteAdvertiser,
  useUpdateAdvertiser,
  type Advertiser,
  type AdvertiserCreate,
} from '@/lib/api/advertisers';
import {
  advertiserComment,
  advertiserName,
  isCronExpression,
  isDateOnly,
  isOrderedRange,
} from '@/server/modules/advertisers/advertisers.schemas';
import { isIanaTimeZone } from '@/server/http/wire.schemas';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import type { Translate } from '@/lib/i18n/translate';
import { wireTimeZone } from '@/lib/time-zones';

/** An optional text field ('' = none) checked by the module's own rule when filled. */
const optional = (isValid: (value: string) => boolean, message: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || isValid(value), message);

/** The form's fields are flat strings ('' = none); the output is the API's body (`validity` null when empty). */
const advertiserFormSchema = (t: Translate<'advertisers.form'>) =>
  z
    .object({
      name: advertiserName,
      comment: advertiserComment,
      enabled: z.boolean(),
      fromDate: optional(isDateOnly, t('badDate')),
      toDate: optional(isDateOnly, t('badDate')),
      timeZone: optional(isIanaTimeZone, t('badZone')),
      cron: optional(isCronExpression, t('badCron')),
    })
    .refine((v) => isOrderedRange(v), { message: t('reversed'), path: ['toDate'] })
    .transform(({ name, comment, enabled, fromDate, toDate, timeZone, cron }): AdvertiserCreate => {
      const filled = {
        ...(fromDate ? { fromDate } : {}),
        ...(toDate ? { toDate } : {}),
        ...(timeZone ? { timeZone: wireTimeZone(timeZone) } : {}),
        ...(cron ? { cron } : {}),
      };

      return { name, comment: comment.trim() ? comment.trim() : null, enabled, validity: Object.keys(filled).length > 0 ? filled : null };
    });

/** Creates an advertiser (no `advertiser`) or edits one: name, comment, enabled and its validity. */
export function AdvertiserFormDialog({
  open,
  advertiser,
  tenantName,
  onOpenChange,
}: {
  open: boolean;
  advertiser?: Advertiser | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('advertisers.form');
  const formWords = useTranslations('common.form');
  const schema = useMemo(() => advertiserFormSchema(t), [t]);
  const create = useCreateAdvertiser();
  const update = useUpdateAdvertiser();
  const validity = advertiser?.validity;
  const current = validity?.timeZone;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={advertiser ? t('edit') : t('new')}
      description={
        !advertiser && tenantName
          ? t.rich('belongsTo', { name: tenantName, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : undefined
      }
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={{
        name: advertiser?.name ?? '',
        comment: advertiser?.comment ?? '',
        // The API's default is disabled (spec 2); a new advertiser made here is meant to be credited, so the form starts enabled.
        enabled: advertiser?.enabled ?? true,
        fromDate: validity?.fromDate ?? '',
        toDate: validity?.toDate ?? '',
        timeZone: validity?.timeZone ?? '',
        cron: validity?.cron ?? '',
      }}
      submitLabel={advertiser ? t('save') : t('create')}
      onSubmit={async (input) => {
        if (advertiser) await update.mutateAsync({ id: advertiser.id, input });
        else await create.mutateAsync(input);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'advertiser.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'resourceLimit.error.limitReached') return t('limitReached');

        return undefined;
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
          {fields.textarea('comment', { label: t('comment'), hint: t('optional'), rows: 2 })}
          {fields.checkbox('enabled', {
            label: t('enabled'),
            description: t('enabledHint'),
          })}
          <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3">
            <legend className="px-1 text-sm font-medium text-zinc-800">{t('validity')}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {fields.text('fromDate', { label: t('firstDay'), type: 'date' })}
              {fields.text('toDate', { label: t('lastDay'), type: 'date' })}
            </div>
            {fields.select('timeZone', {
              label: t('timeZone'),
              hint: t('timeZoneHint'),
              children: <TimeZoneOptions emptyLabel={t('screenZone')} current={current ?? undefined} />,
            })}
            {fields.text('cron', { label: t('cron'), placeholder: '0 8-18 * * MON-FRI', hint: t('cronHint') })}
          </fieldset>
        </>
      )}
    </FormDialog>
  );
}

export function DeleteAdvertiserDialog({
  advertiser,
  onOpenChange,
}: {
  advertiser: Advertiser | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('advertisers.deleteDialog');
  const remove = useDeleteAdvertiser();

  return (
    <ConfirmDialog
      open={advertiser !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich(advertiser?.proofOfPlayAccessSecretConfigured ? 'textWithLink' : 'text', {
        name: advertiser?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (advertiser) await remove.mutateAsync(advertiser.id);
      }}
    />
  );
}

'use client';

import { z } from 'zod';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import { useCreateAdvertiser, useDeleteAdvertiser, useUpdateAdvertiser, type Advertiser, type AdvertiserInput } from '@/lib/api/advertisers';
import { advertiserComment, advertiserName, isCronExpression, isDateOnly, isOrderedRange } from '@/server/modules/advertisers/advertisers.schemas';
import { isIanaTimeZone } from '@/server/http/wire.schemas';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';

/** An optional text field ('' = none) checked by the module's own rule when filled. */
const optional = (isValid: (value: string) => boolean, message: string) => z.string().trim().refine((value) => value === '' || isValid(value), message);

/** The form's fields are flat strings ('' = none); the output is the API's body (`validity` null when empty). */
const AdvertiserFormSchema = z
  .object({
    name: advertiserName,
    comment: advertiserComment,
    enabled: z.boolean(),
    fromDate: optional(isDateOnly, 'A date written yyyy-MM-dd'),
    toDate: optional(isDateOnly, 'A date written yyyy-MM-dd'),
    timeZone: optional(isIanaTimeZone, 'A time zone such as Europe/Berlin'),
    cron: optional(isCronExpression, '5 fields (minute hour day month weekday) or 6 with seconds first, e.g. 0 8-18 * * MON-FRI'),
  })
  .refine((v) => isOrderedRange(v), { message: 'The last day must not be before the first day', path: ['toDate'] })
  .transform(({ name, comment, enabled, ...validity }): AdvertiserInput => {
    const filled = Object.fromEntries(Object.entries(validity).filter(([, value]) => value !== ''));

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
  const create = useCreateAdvertiser();
  const update = useUpdateAdvertiser();
  const validity = advertiser?.validity;
  const current = validity?.timeZone;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={advertiser ? 'Edit advertiser' : 'New advertiser'}
      description={
        !advertiser && tenantName ? (
          <>
            The advertiser belongs to <span className="font-medium text-zinc-700">{tenantName}</span>.
          </>
        ) : undefined
      }
      schema={AdvertiserFormSchema}
      required={{ name: 'Enter a name' }}
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
      submitLabel={advertiser ? 'Save changes' : 'Create advertiser'}
      onSubmit={async (input) => {
        if (advertiser) await update.mutateAsync({ id: advertiser.id, input });
        else await create.mutateAsync(input);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'advertiser.error.nameExists') return { field: 'name', message: 'Another advertiser has this name.' };
        if (error.key === 'resourceLimit.error.limitReached') return 'This tenant has reached its limit of advertisers. Delete one, or ask for a higher limit.';

        return undefined;
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true, hint: 'At most 25 characters, unique in the tenant.' })}
          {fields.textarea('comment', { label: 'Comment', hint: 'Optional.', rows: 2 })}
          {fields.checkbox('enabled', {
            label: 'Enabled',
            description: 'Plays of its channels are credited to it and its proof-of-play link works. While disabled, new plays are not credited to it and the link is refused.',
          })}
          <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3">
            <legend className="px-1 text-sm font-medium text-zinc-800">Validity</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {fields.text('fromDate', { label: 'First day', type: 'date' })}
              {fields.text('toDate', { label: 'Last day', type: 'date' })}
            </div>
            {fields.select('timeZone', {
              label: 'Time zone',
              hint: 'The days are read in this zone.',
              children: <TimeZoneOptions emptyLabel="The screen’s time zone" current={current ?? undefined} />,
            })}
            {fields.text('cron', { label: 'Schedule (cron)', placeholder: '0 8-18 * * MON-FRI', hint: 'Optional. 5 fields (minute hour day month weekday) or 6 with seconds first.' })}
          </fieldset>
        </>
      )}
    </FormDialog>
  );
}

export function DeleteAdvertiserDialog({ advertiser, onOpenChange }: { advertiser: Advertiser | null; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteAdvertiser();

  return (
    <ConfirmDialog
      open={advertiser !== null}
      onOpenChange={onOpenChange}
      title="Delete advertiser?"
      description={
        <>
          <span className="font-medium text-zinc-700">{advertiser?.name}</span> will be removed
          {advertiser?.proofOfPlayAccessSecretConfigured ? ' and its proof-of-play link stops working' : ''}. This cannot be undone.
        </>
      }
      confirmLabel="Delete advertiser"
      destructive
      onConfirm={async () => {
        if (advertiser) await remove.mutateAsync(advertiser.id);
      }}
    />
  );
}

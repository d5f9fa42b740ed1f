'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { isLicenseChoice, licenseOfChoice, useLicenceOffers } from '@/components/devices/license-choices';
import { Spinner } from '@/components/ui/spinner';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import type { DeviceGroup } from '@/lib/api/device-groups';
import { useClaimDevice, useMoveDevices, type Device } from '@/lib/api/devices';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useTenantDefaultTimeZone } from '@/lib/api/settings';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Translate } from '@/lib/i18n/translate';
import { browserTimeZone } from '@/lib/time-zones';
import { ianaTimeZone } from '@/server/http/wire.schemas';

/** The claim form: the code the screen shows, a name, its time zone and licence (spec 3 assignToCustomer). */
const addScreenSchema = (t: Translate<'devices'>) =>
  z
    .object({
      activationCode: z
        .string()
        .trim()
        .regex(/^\d{4}$/, t('add.fourDigits')),
      deviceName: z.string().trim().min(1).max(255),
      timeZone: ianaTimeZone,
      license: z.string().refine(isLicenseChoice),
      folderId: z.string().uuid(t('chooseFolder')),
    })
    .transform(({ license, ...rest }) => ({ ...rest, ...licenseOfChoice(isLicenseChoice(license) ? license : 'UN_LICENSED') }));
type AddScreenSchema = ReturnType<typeof addScreenSchema>;

type FolderChoice = { id: string; name: string };

/**
 * The folder the claim lands in when none was chosen: a dialog opened before the tenant's root folder had loaded
 * takes it once it arrives (otherwise "Add screen" would ask for a folder the user never saw empty).
 */
function DefaultFolder({
  form,
  folderId,
}: {
  form: UseFormReturn<z.input<AddScreenSchema>, unknown, z.output<AddScreenSchema>>;
  folderId: string;
}) {
  useEffect(() => {
    if (folderId && !form.getValues('folderId')) form.setValue('folderId', folderId, { shouldValidate: form.formState.isSubmitted });
  }, [form, folderId]);

  return null;
}

/** The tenant's default zone (settings) once it has loaded, unless the user already chose one. */
function DefaultZone({
  form,
  zone,
}: {
  form: UseFormReturn<z.input<AddScreenSchema>, unknown, z.output<AddScreenSchema>>;
  zone: string | undefined;
}) {
  useEffect(() => {
    if (zone && !form.getFieldState('timeZone').isDirty) form.setValue('timeZone', zone);
  }, [form, zone]);

  return null;
}

/**
 * Claims a screen by the code it shows and puts it in the chosen folder: the claim lands it in the tenant's
 * root folder, and a move follows when another folder was chosen.
 */
export function AddScreenDialog({
  open,
  onOpenChange,
  root,
  defaultFolder,
  activationCode,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The tenant's root device folder (the folder picker's top). */
  root: DeviceGroup | undefined;
  /** The folder chosen when the dialog opens (the one shown in the list); the root otherwise. */
  defaultFolder?: FolderChoice;
  /** A code to fill in (the screens page's `?pair=` from the player's QR code). */
  activationCode?: string;
  onAdded: (device: Device) => void;
}) {
  const t = useTranslations('devices');
  const { tenant } = useTenant();
  const licences = useLicenceOffers(open ? tenant?.id : undefined);
  const schema = useMemo(() => addScreenSchema(t), [t]);
  const claim = useClaimDevice();
  const move = useMoveDevices();
  const tenantZone = useTenantDefaultTimeZone();
  // The tenant's default zone (Settings), else the browser's.
  const zone = tenantZone ?? browserTimeZone();
  const initial = defaultFolder ?? (root ? { id: root.id, name: t('allScreens') } : { id: '', name: '' });
  const [folderName, setFolderName] = useState<string | null>(null);

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setFolderName(null);
        onOpenChange(next);
      }}
      title={t('add.title')}
      description={t('add.description')}
      schema={schema}
      required={{ activationCode: t('add.enterCode'), deviceName: t('enterName') }}
      values={{ activationCode: activationCode ?? '', deviceName: '', timeZone: zone, license: 'UN_LICENSED', folderId: initial.id }}
      submitLabel={t('add.submit')}
      onSubmit={async ({ folderId, ...values }) => {
        const device = await claim.mutateAsync(values);
        // The claim cannot be repeated (the code is used up): a failed move leaves the screen in "All screens",
        // where its page shows it and it can be moved from the list.
        if (root && folderId !== root.id)
          await move.mutateAsync({ deviceIds: [device.id], targetGroupId: folderId }).catch(() => undefined);
        setFolderName(null);
        onAdded(device);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.status === 404) return { field: 'activationCode', message: t('add.unknownCode') };
        if (error.status === 429) return t('add.tooManyCodes');

        return undefined;
      }}
    >
      {(fields, form) => (
        <>
          <DefaultFolder form={form} folderId={initial.id} />
          <DefaultZone form={form} zone={tenantZone} />
          {fields.text('activationCode', { label: t('add.code'), autoFocus: true, inputMode: 'numeric', placeholder: '1234' })}
          {fields.text('deviceName', { label: t('name'), placeholder: t('add.namePlaceholder') })}
          {fields.select('timeZone', {
            label: t('timeZone'),
            hint: tenantZone ? t('add.zoneHintTenant') : t('add.zoneHint'),
            children: <TimeZoneOptions />,
          })}
          {fields.select('license', {
            label: t('licence'),
            hint: licences.isLoading ? t('license.loading') : licences.isNoneFree ? t('license.noneFree') : undefined,
            children: licences.offers.map((offer) => (
              <option key={offer.value} value={offer.value}>
                {offer.label}
              </option>
            )),
          })}
          <div>
            <p className="text-sm font-medium text-zinc-900" id="add-screen-folder">
              {t.rich('folderIs', {
                name: folderName ?? initial.name,
                folder: (chunks) => <span data-testid="add-screen-folder">{chunks}</span>,
              })}
            </p>
            <div className="mt-1.5 max-h-40 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200" aria-labelledby="add-screen-folder">
              {root ? (
                <DeviceFolderTree
                  root={root}
                  selectedId={form.watch('folderId')}
                  openPath={[]}
                  onSelect={(f) => {
                    form.setValue('folderId', f.id, { shouldValidate: true });
                    setFolderName(f.parentId ? (f.name ?? t('untitled')) : t('allScreens'));
                  }}
                />
              ) : (
                <Spinner />
              )}
            </div>
            {form.formState.errors.folderId ? (
              <p className="mt-1 text-sm text-red-700">{String(form.formState.errors.folderId.message ?? '')}</p>
            ) : null}
          </div>
        </>
      )}
    </FormDialog>
  );
}

'use client';

import { useEffect, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { LICENSE_CHOICES, licenseOfChoice, type LicenseChoice } from '@/components/devices/license-choices';
import { Spinner } from '@/components/ui/spinner';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import type { DeviceGroup } from '@/lib/api/device-groups';
import { useClaimDevice, useMoveDevices, type Device } from '@/lib/api/devices';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useTenantDefaultTimeZone } from '@/lib/api/settings';
import { browserTimeZone } from '@/lib/time-zones';
import { ianaTimeZone } from '@/server/http/wire.schemas';

/** The claim form: the code the screen shows, a name, its time zone and licence (spec 3 assignToCustomer). */
const AddScreenSchema = z
  .object({
    activationCode: z.string().trim().regex(/^\d{4}$/, 'The 4 digits the screen shows'),
    deviceName: z.string().trim().min(1).max(255),
    timeZone: ianaTimeZone,
    license: z.enum(LICENSE_CHOICES.map(([value]) => value) as [LicenseChoice, ...LicenseChoice[]]),
    folderId: z.string().uuid('Choose a folder'),
  })
  .transform(({ license, ...rest }) => ({ ...rest, ...licenseOfChoice(license) }));

type FolderChoice = { id: string; name: string };

/**
 * The folder the claim lands in when none was chosen: a dialog opened before the tenant's root folder had loaded
 * takes it once it arrives (otherwise "Add screen" would ask for a folder the user never saw empty).
 */
function DefaultFolder({ form, folderId }: { form: UseFormReturn<z.input<typeof AddScreenSchema>, unknown, z.output<typeof AddScreenSchema>>; folderId: string }) {
  useEffect(() => {
    if (folderId && !form.getValues('folderId')) form.setValue('folderId', folderId, { shouldValidate: form.formState.isSubmitted });
  }, [form, folderId]);

  return null;
}

/** The tenant's default zone (settings) once it has loaded, unless the user already chose one. */
function DefaultZone({ form, zone }: { form: UseFormReturn<z.input<typeof AddScreenSchema>, unknown, z.output<typeof AddScreenSchema>>; zone: string | undefined }) {
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
  const claim = useClaimDevice();
  const move = useMoveDevices();
  const tenantZone = useTenantDefaultTimeZone();
  // The tenant's default zone (Settings), else the browser's.
  const zone = tenantZone ?? browserTimeZone();
  const initial = defaultFolder ?? (root ? { id: root.id, name: 'All screens' } : { id: '', name: '' });
  const [folderName, setFolderName] = useState<string | null>(null);

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setFolderName(null);
        onOpenChange(next);
      }}
      title="Add a screen"
      description="Start the player on the screen: it shows a 4-digit code. Type it here to add the screen to this tenant."
      schema={AddScreenSchema}
      required={{ activationCode: 'Enter the code the screen shows', deviceName: 'Enter a name' }}
      values={{ activationCode: activationCode ?? '', deviceName: '', timeZone: zone, license: 'UN_LICENSED', folderId: initial.id }}
      submitLabel="Add screen"
      onSubmit={async ({ folderId, ...values }) => {
        const device = await claim.mutateAsync(values);
        // The claim cannot be repeated (the code is used up): a failed move leaves the screen in "All screens",
        // where its page shows it and it can be moved from the list.
        if (root && folderId !== root.id) await move.mutateAsync({ deviceIds: [device.id], targetGroupId: folderId }).catch(() => undefined);
        setFolderName(null);
        onAdded(device);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.status === 404) return { field: 'activationCode', message: 'No screen shows this code. Codes last 15 minutes: check the screen for a new one.' };
        if (error.status === 429) return 'Too many wrong codes. Wait a few minutes, then try again with the code on the screen.';

        return undefined;
      }}
    >
      {(fields, form) => (
        <>
          <DefaultFolder form={form} folderId={initial.id} />
          <DefaultZone form={form} zone={tenantZone} />
          {fields.text('activationCode', { label: 'Code on the screen', autoFocus: true, inputMode: 'numeric', placeholder: '1234' })}
          {fields.text('deviceName', { label: 'Name', placeholder: 'Lobby, left' })}
          {fields.select('timeZone', {
            label: 'Time zone',
            hint: tenantZone ? 'Schedules and clocks on the screen follow it. The tenant’s default is set in Settings.' : 'Schedules and clocks on the screen follow it.',
            children: <TimeZoneOptions />,
          })}
          {fields.select('license', {
            label: 'Licence',
            children: LICENSE_CHOICES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            )),
          })}
          <div>
            <p className="text-sm font-medium text-zinc-900" id="add-screen-folder">
              Folder: <span data-testid="add-screen-folder">{folderName ?? initial.name}</span>
            </p>
            <div className="mt-1.5 max-h-40 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200" aria-labelledby="add-screen-folder">
              {root ? (
                <DeviceFolderTree
                  root={root}
                  selectedId={form.watch('folderId')}
                  openPath={[]}
                  onSelect={(f) => {
                    form.setValue('folderId', f.id, { shouldValidate: true });
                    setFolderName(f.parentId ? (f.name ?? 'Untitled') : 'All screens');
                  }}
                />
              ) : (
                <Spinner />
              )}
            </div>
            {form.formState.errors.folderId ? <p className="mt-1 text-sm text-red-700">{String(form.formState.errors.folderId.message ?? '')}</p> : null}
          </div>
        </>
      )}
    </FormDialog>
  );
}

'use client';

import { z } from 'zod';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import { useClaimDevice, type Device } from '@/lib/api/devices';
import { ianaTimeZone } from '@/server/modules/devices/devices.schemas';

/** The claim form: the code the screen shows, a name, its time zone and licence (spec 3 assignToCustomer). */
const AddScreenSchema = z
  .object({
    activationCode: z.string().trim().regex(/^\d{4}$/, 'The 4 digits the screen shows'),
    deviceName: z.string().trim().min(1).max(255),
    timeZone: ianaTimeZone,
    license: z.enum(['UN_LICENSED', 'FREE:BASIC', 'FREE:PROFESSIONAL', 'FREE:ENTERPRISE']),
  })
  .transform(({ license, ...rest }) => {
    const [licenseStatus, licenseType] = license.split(':') as ['UN_LICENSED' | 'FREE', 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE' | undefined];

    return { ...rest, licenseStatus, ...(licenseType ? { licenseType } : {}) };
  });

const LICENSES = [
  ['UN_LICENSED', 'No licence yet'],
  ['FREE:BASIC', 'Free: Lite'],
  ['FREE:PROFESSIONAL', 'Free: Professional'],
  ['FREE:ENTERPRISE', 'Free: Premium'],
] as const;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

/** Claims a screen by the code it shows; the new screen lands in the tenant's root folder. */
export function AddScreenDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (open: boolean) => void; onAdded: (device: Device) => void }) {
  const claim = useClaimDevice();
  const zone = browserTimeZone();
  const zones = timeZones();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add a screen"
      description="Start the player on the screen: it shows a 4-digit code. Type it here to add the screen to this tenant."
      schema={AddScreenSchema}
      required={{ activationCode: 'Enter the code the screen shows', deviceName: 'Enter a name' }}
      values={{ activationCode: '', deviceName: '', timeZone: zone, license: 'UN_LICENSED' }}
      submitLabel="Add screen"
      onSubmit={async (values) => onAdded(await claim.mutateAsync(values))}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.status === 404) return { field: 'activationCode', message: 'No screen shows this code. Codes last 15 minutes: check the screen for a new one.' };
        if (error.status === 429) return 'Too many wrong codes. Wait a few minutes, then try again with the code on the screen.';

        return undefined;
      }}
    >
      {(fields) => (
        <>
          {fields.text('activationCode', { label: 'Code on the screen', autoFocus: true, inputMode: 'numeric', placeholder: '1234' })}
          {fields.text('deviceName', { label: 'Name', placeholder: 'Lobby, left' })}
          {fields.select('timeZone', {
            label: 'Time zone',
            hint: 'Schedules and clocks on the screen follow it.',
            children: (zones.includes(zone) ? zones : [zone, ...zones]).map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            )),
          })}
          {fields.select('license', {
            label: 'Licence',
            children: LICENSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            )),
          })}
        </>
      )}
    </FormDialog>
  );
}

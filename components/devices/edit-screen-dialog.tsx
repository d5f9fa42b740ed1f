'use client';

import { useState } from 'react';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { LICENSE_CHOICES, licenseChoiceOf, licenseLabel, licenseOfChoice, type LicenseChoice } from '@/components/devices/license-choices';
import { FormDialog } from '@/components/ui/form-dialog';
import { Spinner } from '@/components/ui/spinner';
import { TagInput } from '@/components/ui/tag-input';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useDeviceRoot } from '@/lib/api/device-groups';
import { useBulkDeviceTags, useDeviceCommand, useMoveDevices, useUpdateDevice, type Device } from '@/lib/api/devices';
import { ianaTimeZone, resourceName } from '@/server/http/wire.schemas';

/** `KEEP`: a licence the console does not offer (LICENSED, TRIAL) stays as it is. */
const KEEP = 'KEEP';

const EditScreenSchema = z.object({
  name: resourceName,
  timeZone: ianaTimeZone,
  license: z.enum([KEEP, ...LICENSE_CHOICES.map(([value]) => value)] as [string, ...string[]]),
  tags: z.array(z.string()),
  folderId: z.string().uuid('Choose a folder'),
});

type EditScreen = z.infer<typeof EditScreenSchema>;

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);

/**
 * Edits a screen in place: name and time zone (PUT /api/device/{id}), tags (tags/set), licence (updateLicense)
 * and folder (move). Only what changed is sent, each through its own endpoint of spec 3.
 */
export function EditScreenDialog({ device, onOpenChange }: { device: Device | null; onOpenChange: (open: boolean) => void }) {
  const root = useDeviceRoot();
  const update = useUpdateDevice();
  // The screen's own tenant: the page may be open under "All tenants".
  const setTags = useBulkDeviceTags(device?.customerId);
  const command = useDeviceCommand(device?.customerId);
  const move = useMoveDevices(device?.customerId);
  const [folderName, setFolderName] = useState<string | null>(null);
  const current = device ?? ({ id: '' } as Device);
  const isRoot = !current.deviceGroup?.id || current.deviceGroup.id === root.data?.id;
  const license = licenseChoiceOf(current) ?? KEEP;
  const values: EditScreen = {
    name: current.name ?? '',
    timeZone: current.timeZone ?? 'UTC',
    license,
    tags: current.tags ?? [],
    folderId: current.deviceGroup?.id ?? root.data?.id ?? '',
  };

  return (
    <FormDialog
      open={device !== null}
      onOpenChange={(open) => {
        if (!open) setFolderName(null);
        onOpenChange(open);
      }}
      title={`Edit ${device?.name || 'screen'}`}
      schema={EditScreenSchema}
      required={{ name: 'Enter a name' }}
      values={values}
      submitLabel="Save changes"
      onSubmit={async (next) => {
        const ids = [current.id];
        const changes = { ...(next.name !== values.name && { name: next.name }), ...(next.timeZone !== values.timeZone && { timeZone: next.timeZone }) };
        if (Object.keys(changes).length > 0) await update.mutateAsync({ id: current.id, changes });
        if (!sameTags(next.tags, values.tags)) await setTags.mutateAsync({ ids, verb: 'set', tags: next.tags });
        if (next.license !== values.license && next.license !== KEEP) await command.mutateAsync({ name: 'updateLicense', ids, params: licenseOfChoice(next.license as LicenseChoice) });
        if (next.folderId && next.folderId !== values.folderId) await move.mutateAsync({ deviceIds: ids, targetGroupId: next.folderId });
        setFolderName(null);
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.select('timeZone', { label: 'Time zone', hint: 'Schedules, clocks and the screen’s page follow it.', children: <TimeZoneOptions current={values.timeZone} /> })}
          {fields.select('license', {
            label: 'Licence',
            hint: license === KEEP ? 'A licence from a licence order is changed there.' : undefined,
            children: (
              <>
                {license === KEEP ? <option value={KEEP}>{licenseLabel(current)} (unchanged)</option> : null}
                {LICENSE_CHOICES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </>
            ),
          })}
          <TagInput id="edit-screen-tags" value={form.watch('tags')} onChange={(tags) => form.setValue('tags', tags, { shouldDirty: true })} suggest="deviceTags" />
          <div>
            <p className="text-sm font-medium text-zinc-900" id="edit-screen-folder">
              Folder: <span data-testid="edit-screen-folder">{folderName ?? (isRoot ? 'All screens' : (current.deviceGroup?.name ?? 'Untitled folder'))}</span>
            </p>
            <div className="mt-1.5 max-h-40 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200" aria-labelledby="edit-screen-folder">
              {root.data ? (
                <DeviceFolderTree
                  root={root.data}
                  selectedId={form.watch('folderId')}
                  openPath={[]}
                  onSelect={(f) => {
                    form.setValue('folderId', f.id, { shouldValidate: true, shouldDirty: true });
                    setFolderName(f.parentId ? (f.name ?? 'Untitled') : 'All screens');
                  }}
                />
              ) : (
                <Spinner />
              )}
            </div>
          </div>
        </>
      )}
    </FormDialog>
  );
}

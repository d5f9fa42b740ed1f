'use client';

import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { isLicenseChoice, licenseChoiceOf, licenseOfChoice, useLicenceOffers, useLicenseWords } from '@/components/devices/license-choices';
import { FormDialog } from '@/components/ui/form-dialog';
import { Spinner } from '@/components/ui/spinner';
import { TagInput } from '@/components/ui/tag-input';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useDeviceRoot } from '@/lib/api/device-groups';
import { useBulkDeviceTags, useDeviceCommand, useMoveDevices, useUpdateDevice, type Device } from '@/lib/api/devices';
import type { Translate } from '@/lib/i18n/translate';
import { useTenant } from '@/lib/tenant/tenant-context';
import { ianaTimeZone, resourceName } from '@/server/http/wire.schemas';

/** `KEEP`: a licence the console does not offer (TRIAL, or LICENSED without its order) stays as it is. */
const KEEP = 'KEEP';

const editScreenSchema = (t: Translate<'devices'>) =>
  z.object({
    name: resourceName,
    timeZone: ianaTimeZone,
    license: z.string().refine((value) => value === KEEP || isLicenseChoice(value)),
    tags: z.array(z.string()),
    folderId: z.string().uuid(t('chooseFolder')),
  });

type EditScreen = z.infer<ReturnType<typeof editScreenSchema>>;

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);

/**
 * Edits a screen in place: name and time zone (PUT /api/device/{id}), tags (tags/set), licence (updateLicense)
 * and folder (move). Only what changed is sent, each through its own endpoint of spec 3.
 */
export function EditScreenDialog({ device, onOpenChange }: { device: Device | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('devices');
  const { licenseLabel } = useLicenseWords();
  const schema = useMemo(() => editScreenSchema(t), [t]);
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
  // The screen's own tenant: the page may be open under "All tenants". Its current licence stays offered.
  const { tenant } = useTenant();
  const licences = useLicenceOffers(
    device ? (device.customerId ?? tenant?.id) : undefined,
    license === KEEP ? null : license,
    licenseLabel(current),
  );
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
      title={t('edit.title', { name: device?.name || t('edit.screenWord') })}
      schema={schema}
      required={{ name: t('enterName') }}
      values={values}
      submitLabel={t('edit.save')}
      onSubmit={async (next) => {
        const ids = [current.id];
        const changes = {
          ...(next.name !== values.name && { name: next.name }),
          ...(next.timeZone !== values.timeZone && { timeZone: next.timeZone }),
        };
        if (Object.keys(changes).length > 0) await update.mutateAsync({ id: current.id, changes });
        if (!sameTags(next.tags, values.tags)) await setTags.mutateAsync({ ids, verb: 'set', tags: next.tags });
        if (next.license !== values.license && isLicenseChoice(next.license))
          await command.mutateAsync({ name: 'updateLicense', ids, params: licenseOfChoice(next.license) });
        if (next.folderId && next.folderId !== values.folderId) await move.mutateAsync({ deviceIds: ids, targetGroupId: next.folderId });
        setFolderName(null);
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          {fields.select('timeZone', {
            label: t('timeZone'),
            hint: t('edit.zoneHint'),
            children: <TimeZoneOptions current={values.timeZone} />,
          })}
          {fields.select('license', {
            label: t('licence'),
            hint: licences.isLoading
              ? t('license.loading')
              : license === KEEP
                ? t('license.keepHint')
                : licences.isNoneFree
                  ? t('license.noneFree')
                  : undefined,
            children: (
              <>
                {license === KEEP ? <option value={KEEP}>{t('license.unchanged', { licence: licenseLabel(current) })}</option> : null}
                {licences.offers.map((offer) => (
                  <option key={offer.value} value={offer.value}>
                    {offer.label}
                  </option>
                ))}
              </>
            ),
          })}
          <TagInput
            id="edit-screen-tags"
            value={form.watch('tags')}
            onChange={(tags) => form.setValue('tags', tags, { shouldDirty: true })}
            suggest="deviceTags"
          />
          <div>
            <p className="text-sm font-medium text-zinc-900" id="edit-screen-folder">
              {t.rich('folderIs', {
                name: folderName ?? (isRoot ? t('allScreens') : (current.deviceGroup?.name ?? t('untitledFolder'))),
                folder: (chunks) => <span data-testid="edit-screen-folder">{chunks}</span>,
              })}
            </p>
            <div className="mt-1.5 max-h-40 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200" aria-labelledby="edit-screen-folder">
              {root.data ? (
                <DeviceFolderTree
                  root={root.data}
                  selectedId={form.watch('folderId')}
                  openPath={[]}
                  onSelect={(f) => {
                    form.setValue('folderId', f.id, { shouldValidate: true, shouldDirty: true });
                    setFolderName(f.parentId ? (f.name ?? t('untitled')) : t('allScreens'));
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

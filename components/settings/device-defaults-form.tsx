'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useCustomerSettings, useUpdateDeviceSettings } from '@/lib/api/settings';
import { useErrorMessage } from '@/lib/i18n/errors';

/** The tenant's defaults for new screens: the time zone "Add screen" proposes (settings/devices). */
export function DeviceDefaultsForm({ customerId, asSelector }: { customerId: number; asSelector: boolean }) {
  const t = useTranslations('settings');
  const errorMessage = useErrorMessage();
  const customer = useCustomerSettings(customerId);
  const update = useUpdateDeviceSettings(customerId, asSelector);
  const stored = customer.data?.defaultTimeZone ?? '';
  const [zone, setZone] = useState(stored);
  const [saved, setSaved] = useState(false);
  const [apiError, setApiError] = useState<string | null>(null);
  useEffect(() => setZone(stored), [stored]);

  const save = async () => {
    setApiError(null);
    setSaved(false);
    try {
      await update.mutateAsync({ defaultTimeZone: zone });
      setSaved(true);
    } catch (error) {
      setApiError(errorMessage(error));
    }
  };

  return (
    <Card>
      <div className="border-b border-zinc-200 px-5 py-4">
        <h2 className="text-base font-semibold text-zinc-900">{t('devices.title')}</h2>
        <p className="mt-0.5 text-sm text-zinc-500">{t('devices.description')}</p>
      </div>
      {customer.isPending ? (
        <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
          <Spinner /> {t('loading')}
        </p>
      ) : customer.isError ? (
        <LoadError className="m-5" title={t('loadError')} error={customer.error} onRetry={() => void customer.refetch()} />
      ) : (
        <form
          aria-label={t('devices.form')}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="px-5 py-5">
            <Field id="default-time-zone" label={t('devices.timeZone')} hint={t('devices.timeZoneHint')}>
              <Select id="default-time-zone" value={zone} disabled={update.isPending} onChange={(e) => setZone(e.target.value)}>
                <TimeZoneOptions emptyLabel={t('devices.noZone')} current={stored || undefined} />
              </Select>
            </Field>
          </div>
          <div className="flex items-center justify-end gap-3 border-t border-zinc-100 px-5 py-3.5">
            {apiError ? <Alert className="mr-auto py-2">{apiError}</Alert> : null}
            {saved && zone === stored ? (
              <span role="status" className="mr-auto text-sm text-emerald-700">
                {t('saved')}
              </span>
            ) : null}
            <Button type="submit" disabled={zone === stored || update.isPending}>
              {update.isPending ? <Spinner /> : null}
              {t('devices.save')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { TEAM_SETTING_FIELDS, teamSettingsOf, useCustomerSettings, useUpdateTeamSettings, type TeamSettings } from '@/lib/api/settings';
import { useErrorMessage } from '@/lib/i18n/errors';

export function TeamAccessForm({ customerId, asSelector }: { customerId: number; asSelector: boolean }) {
  const t = useTranslations('settings');
  const errorMessage = useErrorMessage();
  const customer = useCustomerSettings(customerId);
  const update = useUpdateTeamSettings(customerId, asSelector);
  const [saved, setSaved] = useState(false);
  const [apiError, setApiError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { isDirty, isSubmitting },
  } = useForm<TeamSettings>();

  useEffect(() => {
    if (customer.data) reset(teamSettingsOf(customer.data));
  }, [customer.data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setApiError(null);
    setSaved(false);
    try {
      const next = await update.mutateAsync(values);
      reset(teamSettingsOf(next));
      setSaved(true);
    } catch (error) {
      setApiError(errorMessage(error));
    }
  });

  return (
    <Card>
      <div className="border-b border-zinc-200 px-5 py-4">
        <h2 className="text-base font-semibold text-zinc-900">{t('teamAccess.title')}</h2>
        <p className="mt-0.5 text-sm text-zinc-500">{t('teamAccess.description')}</p>
      </div>
      {customer.isPending ? (
        <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
          <Spinner /> {t('loading')}
        </p>
      ) : customer.isError ? (
        <LoadError className="m-5" title={t('loadError')} error={customer.error} onRetry={() => void customer.refetch()} />
      ) : (
        <form onSubmit={onSubmit} aria-label={t('teamAccess.form')}>
          <fieldset className="space-y-4 px-5 py-5" disabled={isSubmitting}>
            <legend className="sr-only">{t('teamAccess.form')}</legend>
            {TEAM_SETTING_FIELDS.map((field) => (
              <CheckboxField
                key={field.name}
                id={`team-setting-${field.name}`}
                label={t(`teamAccess.fields.${field.name}.label`)}
                description={t(`teamAccess.fields.${field.name}.description`)}
                {...register(field.name)}
              />
            ))}
          </fieldset>
          <div className="flex items-center justify-end gap-3 border-t border-zinc-100 px-5 py-3.5">
            {apiError ? <Alert className="mr-auto py-2">{apiError}</Alert> : null}
            {saved && !isDirty ? (
              <span role="status" className="mr-auto text-sm text-emerald-700">
                {t('saved')}
              </span>
            ) : null}
            <Button
              variant="secondary"
              disabled={!isDirty || isSubmitting}
              onClick={() => customer.data && reset(teamSettingsOf(customer.data))}
            >
              {t('teamAccess.discard')}
            </Button>
            <Button type="submit" disabled={!isDirty || isSubmitting}>
              {isSubmitting ? <Spinner /> : null}
              {t('teamAccess.save')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

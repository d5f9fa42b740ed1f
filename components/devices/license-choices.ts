import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { Device } from '@/lib/api/devices';
import { useLabel } from '@/lib/i18n/labels';

/*
 * The licences a screen can be given in the console (spec 3 assignToCustomer / updateLicense): none, or FREE
 * with a licence type. LICENSED needs a licence order, which nothing creates yet (docs/decisions.md): it is
 * shown, never offered. Their words are the label table's (licenseStatus, licenseType).
 */
export const LICENSE_CHOICES = ['UN_LICENSED', 'FREE:BASIC', 'FREE:PROFESSIONAL', 'FREE:ENTERPRISE'] as const;

export type LicenseChoice = (typeof LICENSE_CHOICES)[number];

/** How the console words licences: a choice ("No licence yet", "Free: Professional") and a screen's licence. */
export function useLicenseWords() {
  const t = useTranslations('devices.license');
  const label = useLabel();
  const licenseLabel = useCallback(
    /** "Free: Professional", "Licensed: Enterprise", "No licence". */
    (device: Pick<Device, 'licenseStatus' | 'licenseType'>): string => {
      if (!device.licenseStatus) return '—';
      const status = label('licenseStatus', device.licenseStatus);

      return device.licenseStatus !== 'UN_LICENSED' && device.licenseType
        ? t('withType', { status, type: label('licenseType', device.licenseType) })
        : status;
    },
    [t, label],
  );
  const choiceLabel = useCallback(
    (choice: LicenseChoice): string => (choice === 'UN_LICENSED' ? t('none') : licenseLabel(licenseOfChoice(choice))),
    [t, licenseLabel],
  );

  return { licenseLabel, choiceLabel };
}

/** The choice a screen's licence is (a LICENSED or TRIAL one is none of them: null). */
export function licenseChoiceOf(device: Pick<Device, 'licenseStatus' | 'licenseType'>): LicenseChoice | null {
  const value = device.licenseStatus === 'FREE' ? `FREE:${device.licenseType}` : (device.licenseStatus ?? 'UN_LICENSED');

  return LICENSE_CHOICES.some((v) => v === value) ? (value as LicenseChoice) : null;
}

/** A choice as the API's licence fields. */
export function licenseOfChoice(choice: LicenseChoice): {
  licenseStatus: 'UN_LICENSED' | 'FREE';
  licenseType?: 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE';
} {
  const [licenseStatus, licenseType] = choice.split(':') as ['UN_LICENSED' | 'FREE', 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE' | undefined];

  return { licenseStatus, ...(licenseType ? { licenseType } : {}) };
}

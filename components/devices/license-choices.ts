import type { Device } from '@/lib/api/devices';

/*
 * The licences a screen can be given in the console (spec 3 assignToCustomer / updateLicense): none, or FREE
 * with a licence type (UI names: BASIC = Lite, PROFESSIONAL = Professional, ENTERPRISE = Premium). LICENSED
 * needs a licence order, which nothing creates yet (docs/decisions.md): it is shown, never offered.
 */
export const LICENSE_CHOICES = [
  ['UN_LICENSED', 'No licence yet'],
  ['FREE:BASIC', 'Free: Lite'],
  ['FREE:PROFESSIONAL', 'Free: Professional'],
  ['FREE:ENTERPRISE', 'Free: Premium'],
] as const;

export type LicenseChoice = (typeof LICENSE_CHOICES)[number][0];

const TYPE_LABELS: Record<string, string> = { BASIC: 'Lite', PROFESSIONAL: 'Professional', DBA: 'Broadcaster', ENTERPRISE: 'Premium', VIDEO_WALL: 'Video Wall' };
const STATUS_LABELS: Record<string, string> = { UN_LICENSED: 'No licence', FREE: 'Free', LICENSED: 'Licensed', TRIAL: 'Trial' };

/** "Free: Lite", "Licensed: Premium", "No licence". */
export function licenseLabel(device: Pick<Device, 'licenseStatus' | 'licenseType'>): string {
  if (!device.licenseStatus) return '—';
  const status = STATUS_LABELS[device.licenseStatus] ?? device.licenseStatus;

  return device.licenseStatus !== 'UN_LICENSED' && device.licenseType ? `${status}: ${TYPE_LABELS[device.licenseType] ?? device.licenseType}` : status;
}

/** The choice a screen's licence is (a LICENSED or TRIAL one is none of them: null). */
export function licenseChoiceOf(device: Pick<Device, 'licenseStatus' | 'licenseType'>): LicenseChoice | null {
  const value = device.licenseStatus === 'FREE' ? `FREE:${device.licenseType}` : (device.licenseStatus ?? 'UN_LICENSED');

  return LICENSE_CHOICES.some(([v]) => v === value) ? (value as LicenseChoice) : null;
}

/** A choice as the API's licence fields. */
export function licenseOfChoice(choice: LicenseChoice): { licenseStatus: 'UN_LICENSED' | 'FREE'; licenseType?: 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE' } {
  const [licenseStatus, licenseType] = choice.split(':') as ['UN_LICENSED' | 'FREE', 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE' | undefined];

  return { licenseStatus, ...(licenseType ? { licenseType } : {}) };
}

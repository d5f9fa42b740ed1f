import type { Role } from '@/server/context/roles';
import { verticals as VERTICALS, type LicenseTier } from '@/server/modules/customers/customers.schemas';
import type { User } from '@/server/modules/users/users.schemas';

export type { Role } from '@/server/context/roles';
export type { Page } from '@/server/query/paging';
export type { ErrorBody as ApiErrorBody } from '@/server/http/errors';

export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: 'Super Administrator',
  OWNER: 'Administrator',
  TECHNICIAN: 'Technical manager',
  APPROVER: 'Content manager',
  EDITOR: 'Content editor',
  VIEWER: 'View only',
  DEVICE_USER: 'Device user',
};

export function roleLabel(role: string): string {
  return (ROLE_LABELS as Record<string, string>)[role] ?? role;
}

/** Wire types come from the server's schemas (what the API declares and the tests check it answers). */
export type { User } from '@/server/modules/users/users.schemas';
export type { Customer, LicenseTier } from '@/server/modules/customers/customers.schemas';
export type { LogEntry as AuditEntry } from '@/server/modules/audit-log/audit-log.schemas';

/** The user's customer as the default projection answers it. */
export type CustomerRef = NonNullable<User['customer']>;

/** GET /api/v2/user/me: the caller as a user, with its customer (the default projection always has it). */
export type Me = User & { customer: CustomerRef };

export const LANGUAGES: ReadonlyArray<{ code: string; label: string }> = [
  { code: 'en', label: 'English' },
  { code: 'de', label: 'Deutsch' },
  { code: 'fr', label: 'Français' },
  { code: 'es', label: 'Español' },
  { code: 'it', label: 'Italiano' },
  { code: 'nl', label: 'Nederlands' },
  { code: 'pl', label: 'Polski' },
  { code: 'pt', label: 'Português' },
];

/** The UI calls STARTER "Essential" (spec 3). */
export const LICENSE_TIERS: ReadonlyArray<{ value: LicenseTier; label: string }> = [
  { value: 'STARTER', label: 'Essential' },
  { value: 'BUSINESS', label: 'Business' },
  { value: 'ENTERPRISE', label: 'Enterprise' },
];

export function tierLabel(tier: string | null | undefined): string {
  return LICENSE_TIERS.find((t) => t.value === tier)?.label ?? '—';
}

export { VERTICALS };

/** The API keeps these values as spelled (spec 3); the labels say what they mean. */
const VERTICAL_LABELS: Partial<Record<(typeof VERTICALS)[number], string>> = {
  EDUCATION_COLLAGE_AND_UNIVERSITIES: 'Education, colleges and universities',
  FACTORY_PRODUCEMENT: 'Factory and production',
};

/** `QUICK_SERVICE_RESTAURANT` → `Quick service restaurant`. */
export function verticalLabel(vertical: string | null | undefined): string {
  if (!vertical) return '—';
  const label = VERTICAL_LABELS[vertical as (typeof VERTICALS)[number]];
  if (label) return label;
  const words = vertical.toLowerCase().split('_');

  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ');
}

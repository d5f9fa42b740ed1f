import type { Role } from '@/server/context/roles';

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

export type CustomerRef = {
  id: number;
  name: string;
  expirationDate?: string | null;
  force2FA?: boolean | null;
};

export type Me = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  language?: string | null;
  customer: CustomerRef;
  createdDate?: string | null;
  lastLogin?: string | null;
  use2FA?: boolean | null;
  forceToSet2FA?: boolean | null;
  hasProfilePicture?: boolean | null;
  profilePictureApiPath?: string | null;
};

export type User = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  customerId?: number | null;
  customer?: CustomerRef | null;
  createdDate?: string | null;
  lastLogin?: string | null;
  lastActivity?: string | null;
  use2FA?: boolean | null;
  language?: string | null;
  readOnly?: boolean | null;
  restricted?: boolean | null;
  /** LOCAL users sign in with a password (and get password-setup links); the others through their SSO provider. */
  authProvider?: 'LOCAL' | 'LDAP' | 'SAML' | 'KEYCLOAK' | null;
};

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

export type LicenseTier = 'STARTER' | 'BUSINESS' | 'ENTERPRISE';

export type Customer = {
  id: number;
  name: string;
  licenseTier?: LicenseTier | null;
  vertical?: string | null;
  expirationDate?: string | null;
  comment?: string | null;
  country?: string | null;
  location?: string | null;
  type?: string | null;
  createdDate?: string | null;
  restricted?: boolean | null;
  ownerSubresellerId?: number | null;
  ownerSubresellerName?: string | null;
  subreseller?: { id: number; since?: string } | null;
  freeLicenses?: number | null;
  browserSessionLicenses?: number | null;
  deviceSessionLimit?: number | null;
  storageSize?: number | null;
  needsToBeInvoiced?: boolean | null;
  lastActivity?: string | null;
  totalUserLoginCount?: number | null;
};

/** The UI calls STARTER "Essential" (spec 3). */
export const LICENSE_TIERS: ReadonlyArray<{ value: LicenseTier; label: string }> = [
  { value: 'STARTER', label: 'Essential' },
  { value: 'BUSINESS', label: 'Business' },
  { value: 'ENTERPRISE', label: 'Enterprise' },
];

export function tierLabel(tier: string | null | undefined): string {
  return LICENSE_TIERS.find((t) => t.value === tier)?.label ?? '—';
}

export const VERTICALS = [
  'BANKING_AND_FINANCE', 'EMPLOYEE_CORPORATE_COMMUNICATION', 'CORPORATE_MEETING_ROOMS', 'DIGITAL_SIGNAGE',
  'EDUCATION_COLLAGE_AND_UNIVERSITIES', 'CONFERENCE_AND_CONVENTION_CENTERS', 'GOVERNMENT', 'HEALTHCARE',
  'HOSPITALITY', 'QUICK_SERVICE_RESTAURANT', 'RETAIL', 'SPORTS',
  'PETROL_STATIONS', 'TRANSPORTATION', 'ENTERTAINMENT', 'WAYFINDING_AND_DIRECTORIES',
  'OTHER', 'FACTORY_PRODUCEMENT', 'BUSINESS_PARTNER', 'RESELLER_PARTNER', 'TECHNOLOGY_PARTNER',
] as const;

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

export type AuditEntry = {
  time: string;
  logLevel?: string | null;
  message: string;
  userEmail?: string | null;
  customerId?: number | null;
  customerName?: string | null;
  entityType?: string | null;
  entityId?: string | null;
};

import type { Role } from '@/server/auth/roles';

export type { Role } from '@/server/auth/roles';
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
  use2FA?: boolean | null;
  language?: string | null;
  readOnly?: boolean | null;
  restricted?: boolean | null;
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

export type Customer = {
  id: number;
  name: string;
  licenseTier?: string | null;
  vertical?: string | null;
  expirationDate?: string | null;
};

export const ROLES = ['ADMIN', 'OWNER', 'TECHNICIAN', 'APPROVER', 'EDITOR', 'VIEWER', 'DEVICE_USER'] as const;
export type Role = (typeof ROLES)[number];

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

/** The spec's page envelope for paged reads. */
export type Page<T> = {
  content: T[];
  first: boolean;
  last: boolean;
  number: number;
  numberOfElements: number;
  size: number;
  totalElements: number;
  totalPages: number;
  sort?: string;
};

export type ApiErrorBody = {
  status: number;
  key: string;
  message: string;
  details?: Record<string, unknown>;
};

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
};

export type Customer = {
  id: number;
  name: string;
  licenseTier?: string | null;
  vertical?: string | null;
  expirationDate?: string | null;
};

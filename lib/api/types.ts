import { verticals as VERTICALS } from '@/server/modules/customers/customers.schemas';
import type { User } from '@/server/modules/users/users.schemas';

export type { Role } from '@/server/context/roles';
export type { Page } from '@/server/query/paging';
export type { ErrorBody as ApiErrorBody } from '@/server/http/errors';

/** Wire types come from the server's schemas (what the API declares and the tests check it answers). */
export type { User } from '@/server/modules/users/users.schemas';
export type { Customer, LicenseTier } from '@/server/modules/customers/customers.schemas';
export type { LogEntry as AuditEntry } from '@/server/modules/audit-log/audit-log.schemas';

/** The user's customer as the default projection answers it. */
type CustomerRef = NonNullable<User['customer']>;

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

export { VERTICALS };

import type { Role } from './roles';

/** The authenticated caller, resolved once per request by the auth middleware. */
export type Actor = {
  userId: string;
  email: string;
  name: string;
  role: Role;
  customerId: number;
  customerName: string;
  /** The caller's own customer is a network owner. */
  isNetworkOwner: boolean;
  /** The user sees only team-assigned resources. */
  isRestrictedUser: boolean;
  tokenFamilyId: string;
  via: 'bearer' | 'jwt' | 'cookie';
};

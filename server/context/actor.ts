import { hasRole, type Role } from './roles';

/** A signed-in user (bearer token, its JWT form, or the console's session cookie). */
export type UserActor = {
  kind: 'user';
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

/** A screen, with its device token (spec 4): it acts in its own customer only and has no role. */
export type DeviceActor = {
  kind: 'device';
  deviceId: string;
  deviceName: string;
  customerId: number;
  customerName: string;
};

/**
 * A screen calling the player API (`/api/display/**`) with its device token. Until a tenant claims it the
 * device has no customer (`customerId` null) and may call only what spec 4 §3 allows an unassigned device;
 * once assigned it acts as its `DeviceActor`.
 */
export type DeviceCaller = {
  deviceId: string;
  deviceName: string;
  customerId: number | null;
  customerName: string | null;
};

/** The actor an assigned device acts as; undefined while it is unassigned (it belongs to no tenant). */
export function deviceActorOf(caller: DeviceCaller): DeviceActor | undefined {
  if (caller.customerId === null) return undefined;

  return {
    kind: 'device',
    deviceId: caller.deviceId,
    deviceName: caller.deviceName,
    customerId: caller.customerId,
    customerName: caller.customerName ?? '',
  };
}

/**
 * A webhook API key (spec 3 "Webhook API key"): it acts in the key's customer only, within its scopes,
 * and, when `restricted`, only on resources of the teams the key is assigned to.
 */
export type ApiKeyActor = {
  kind: 'apiKey';
  apiKeyId: string;
  name: string;
  customerId: number;
  customerName: string;
  scopes: readonly 'WEBHOOK_CALL'[];
  restricted: boolean;
};

/** The service itself: a background job (named in audit entries) acting on whichever tenant it names. */
export type SystemActor = { kind: 'system'; job: string };

/** Who is calling. The tenant scope, roles, teams and the audit log read it; none of them assumes a user. */
export type Actor = UserActor | DeviceActor | ApiKeyActor | SystemActor;

export type ActorKind = Actor['kind'];

/** The actor of a job run. */
export function systemActor(job: string): SystemActor {
  return { kind: 'system', job };
}

/**
 * Whether the actor may use what `minimum` may: a user by its role; the system always; devices and API keys
 * never (they have no role: their own routes admit them by kind, not by role).
 */
export function actorHasRole(actor: Actor, minimum: Role): boolean {
  switch (actor.kind) {
    case 'user':
      return hasRole(actor.role, minimum);
    case 'system':
      return true;
    case 'device':
    case 'apiKey':
      return false;
  }
}

/** The customer the actor belongs to; undefined for the system, which belongs to none. */
export function homeCustomerOf(actor: Actor): number | undefined {
  return actor.kind === 'system' ? undefined : actor.customerId;
}

/**
 * How team assignments see the actor (spec 1 "Team assignment"): as the team member it is (a user, or a
 * webhook API key, whose teams are its own team assignments), or as above teams (`undefined`: OWNER and
 * ADMIN users, devices and the system see their whole tenant scope).
 */
export function teamMemberOf(actor: Actor): { type: 'user' | 'webhookApiKey'; id: string; restricted: boolean } | undefined {
  switch (actor.kind) {
    case 'user':
      return hasRole(actor.role, 'OWNER') ? undefined : { type: 'user', id: actor.userId, restricted: actor.isRestrictedUser };
    case 'apiKey':
      return { type: 'webhookApiKey', id: actor.apiKeyId, restricted: actor.restricted };
    case 'device':
    case 'system':
      return undefined;
  }
}

/** The actor's identity for log lines (never a secret). */
export function actorLogFields(actor: Actor | undefined): Record<string, string> | undefined {
  switch (actor?.kind) {
    case undefined:
      return undefined;
    case 'user':
      return { userId: actor.userId };
    case 'device':
      return { deviceId: actor.deviceId };
    case 'apiKey':
      return { apiKeyId: actor.apiKeyId };
    case 'system':
      return { job: actor.job };
  }
}

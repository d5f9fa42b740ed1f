import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import type { BlobStore } from '@/server/storage/blob-store';
import { systemActor, type Actor, type DeviceActor, type DeviceCaller, type SystemActor, type UserActor } from './actor';
import type { TenantScope } from './tenant-scope';

/**
 * What every service verb receives: who calls, in which tenant scope, and the service's resources. No HTTP
 * objects. The actor kind is part of the type: the console's and the API's verbs take a user (the default),
 * device verbs a device, jobs the system; shared mechanisms take any `ServiceContext<Actor>`.
 */
export type ServiceContext<A extends Actor = UserActor> = {
  db: Database;
  config: Config;
  storage: BlobStore;
  actor: A;
  scope: TenantScope;
  requestId: string;
  log: Logger;
  /** Proof for protected operations, from the `g-recaptcha-response` and `x-totp` headers. */
  proof: { captchaResponse?: string; totp?: string };
};

/**
 * What a player-API verb receives: the calling device (assigned or not; `actor` is its DeviceActor once a
 * tenant has claimed it) and the service's resources.
 */
export type DeviceContext = {
  db: Database;
  config: Config;
  storage: BlobStore;
  device: DeviceCaller;
  actor: DeviceActor | undefined;
  requestId: string;
  log: Logger;
};

/**
 * What a background job (or start-up work) acts with: the system, named by its job in audit entries, over every
 * tenant. No request: no request id, proof or storage. Every job and start-up step that writes as someone builds
 * it here, never a system actor by hand.
 */
export type SystemContext = Pick<ServiceContext<SystemActor>, 'db' | 'actor' | 'scope'> & { log?: Logger };

export function systemContext(db: Database, job: string, log?: Logger): SystemContext {
  return { db, actor: systemActor(job), scope: { kind: 'all' }, log };
}

import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import type { BlobStore } from '@/server/storage/blob-store';
import type { Actor } from './actor';
import type { TenantScope } from './tenant-scope';

/** What every service verb receives: who calls, in which tenant scope, and the service's resources. No HTTP objects. */
export type ServiceContext = {
  db: Database;
  config: Config;
  storage: BlobStore;
  actor: Actor;
  scope: TenantScope;
  requestId: string;
  log: Logger;
  /** Proof for protected operations, from the `g-recaptcha-response` and `x-totp` headers. */
  proof: { captchaResponse?: string; totp?: string };
};

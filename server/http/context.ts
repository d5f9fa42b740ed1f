import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Role } from '@/server/auth/roles';
import type { Database } from '@/server/db/client';
import type { Config } from '@/server/config';
import type { TenantScope } from '@/server/auth/tenant-scope';
import type { BlobStore } from '@/server/storage/blob-store';

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

/** What every service verb receives: no HTTP objects. */
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

export type AppDeps = {
  db: Database;
  config: Config;
  storage: BlobStore;
  log: Logger;
  /** Answers when the database and storage answer (readiness). */
  ready: () => Promise<boolean>;
};

export type AppEnv = {
  /**
   * `incoming`/`outgoing`: set by @hono/node-server (absent under `app.request` in tests), the raw Node
   * request and response. `bridgeClientAddress`: set by the console's in-process bridge (server/main.ts).
   */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse; bridgeClientAddress?: string };
  Variables: {
    deps: AppDeps;
    requestId: string;
    log: Logger;
    actor?: Actor;
    scope?: TenantScope;
  };
};

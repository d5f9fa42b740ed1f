import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import type { Config } from '@/server/config';
import type { Actor, DeviceCaller } from '@/server/context/actor';
import type { TenantScope } from '@/server/context/tenant-scope';
import type { Metrics } from '@/server/metrics/metrics';
import type { BlobStore } from '@/server/storage/blob-store';

export type AppDeps = {
  db: Database;
  config: Config;
  storage: BlobStore;
  log: Logger;
  /** Answers when the database and storage answer (readiness). */
  ready: () => Promise<boolean>;
  /**
   * True while the server starts (migrations, the endpoints) and once it has begun to stop: every route but the
   * health checks answers 503, so no request reaches a database its migrations have not reached yet, or one being
   * closed. Absent: started.
   */
  starting?: () => boolean;
  /** The service's Prometheus metrics: requests are counted into them, GET /metrics answers them. Absent: neither. */
  metrics?: Metrics;
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
    /** The calling device on the player API (`/api/display/**`); `actor` is its DeviceActor once it is assigned. */
    device?: DeviceCaller;
    scope?: TenantScope;
    /** The route's body limit when the handler streams the body (requestBodyStream cuts it there). */
    bodyLimit?: number;
  };
};

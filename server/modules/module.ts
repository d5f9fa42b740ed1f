import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database, DatabaseHandle } from '@/server/db/client';
import type { RouteRegistrar } from '@/server/http/route';
import type { SocketEndpoint } from '@/server/http/upgrade';
import type { JobDefinition } from '@/server/jobs/queue';
import type { PlugPoint } from '@/server/plug-point';
import type { BlobStore } from '@/server/storage';

/** What a module's jobs are built from. */
export type JobDeps = {
  db: Database;
  config: Config;
  log: Logger;
  /** Aborted when the instance stops (the job queue's `stopping`): a module's side workers claim no more work. */
  stopping?: AbortSignal;
};

/** What a module's WebSocket endpoints are built from (the handle: LISTEN needs its own connection). */
export type SocketDeps = { handle: DatabaseHandle; config: Config; storage: BlobStore; log: Logger };

/** One module's contributions to one plug point. */
export type Plug = { point: PlugPoint<unknown>; items: readonly unknown[] };

/** Lists `items` for `point` (typed: a contribution must have the point's shape). */
export function plug<T>(point: PlugPoint<T>, ...items: T[]): Plug {
  return { point, items };
}

/**
 * Creates one resource of the module's kind in `customerId` and answers its id: the route-table
 * security sweep fills a route's declared resource ids with another tenant's resources through it.
 */
export type SweepFactory = (db: Database, customerId: number) => Promise<string>;

/**
 * A module's manifest (`<module>.module.ts`): everything the rest of the service needs to know about it.
 * server/composition.ts lists the manifests once; the app, the job runner and every plug point are built
 * from that list, and a unit test checks each manifest against the module's files.
 */
export type ModuleManifest = {
  /** The module's folder name under server/modules. */
  name: string;
  /** Declares the module's routes. Registration order does not matter: the app puts static paths first. */
  routes?: (app: RouteRegistrar) => void;
  /** Every table the module's `*.table.ts` files define (migrations come from those files). */
  tables?: readonly object[];
  jobs?: (deps: JobDeps) => JobDefinition[];
  /** Starts the module's WebSocket endpoints (after the migrations); the server routes upgrades to them by path. */
  sockets?: (deps: SocketDeps) => Promise<SocketEndpoint[]>;
  /** What the module plugs into the shared mechanisms (teams, tags, file references, usage counters, …). */
  plugs?: readonly Plug[];
  /** Brings the module's own reference data up to date after the migrations, at every start (idempotent). */
  prepare?: (db: Database) => Promise<void>;
  /** Sweep factories by resource kind (the names routes use in their declared resource ids). */
  sweep?: Readonly<Record<string, SweepFactory>>;
};

export function defineModule(manifest: ModuleManifest): ModuleManifest {
  return manifest;
}

/**
 * The composition root: the module list, and the app, job list and sockets built from it. It stands above
 * server/http (which names no module) and server/modules (which use server/http's pieces); server/main.ts,
 * server/service.ts, the test harness and scripts/openapi-document.ts build the service through it.
 */
import { advertisersModule } from './modules/advertisers/advertisers.module';
import { alertsModule } from './modules/alerts/alerts.module';
import { auditLogModule } from './modules/audit-log/audit-log.module';
import { campaignsModule } from './modules/campaigns/campaigns.module';
import { contentModule } from './modules/content/content.module';
import { contentGroupsModule } from './modules/content-groups/content-groups.module';
import { customersModule } from './modules/customers/customers.module';
import { datasourcesModule } from './modules/datasources/datasources.module';
import { deviceGroupsModule } from './modules/device-groups/device-groups.module';
import { devicesModule } from './modules/devices/devices.module';
import { licencesModule } from './modules/licences/licences.module';
import { displayModule } from './modules/display/display.module';
import { messageGroupsModule } from './modules/message-groups/message-groups.module';
import { fileFoldersModule } from './modules/file-folders/file-folders.module';
import { filesModule } from './modules/files/files.module';
import { foldersModule } from './modules/folders/folders.module';
import { mailModule } from './modules/mail/mail.module';
import { messagesModule } from './modules/messages/messages.module';
import { notificationChannelsModule } from './modules/notification-channels/notification-channels.module';
import { webhooksModule } from './modules/webhooks/webhooks.module';
import type { Database, DatabaseHandle } from '@/server/db/client';
import { installMetrics, type Metrics } from '@/server/metrics/metrics';
import { countPendingCommands } from './modules/devices';
import type { JobDeps, ModuleManifest, SocketDeps } from './modules/module';
import type { AppDeps } from '@/server/http/context';
import { createHttpApp, type App, type AppOptions } from '@/server/http/app';
import type { SocketEndpoint } from '@/server/http/upgrade';
import type { PlugPoint } from '@/server/plug-point';
import { oauthModule } from './modules/oauth/oauth.module';
import { quickFiltersModule } from './modules/quick-filters/quick-filters.module';
import { resourceLimitsModule } from './modules/resource-limits/resource-limits.module';
import { systemModule } from './modules/system/system.module';
import { proofOfPlayModule } from './modules/proof-of-play/proof-of-play.module';
import { tagsModule } from './modules/tags/tags.module';
import { teamsModule } from './modules/teams/teams.module';
import { uiProfilesModule } from './modules/ui-profiles/ui-profiles.module';
import { uploadsModule } from './modules/uploads/uploads.module';
import { usersModule } from './modules/users/users.module';

/** Every module of the service, once. A new module adds its manifest here and nowhere else. */
export const modules: readonly ModuleManifest[] = [
  systemModule,
  oauthModule,
  customersModule,
  usersModule,
  teamsModule,
  uiProfilesModule,
  resourceLimitsModule,
  auditLogModule,
  mailModule,
  foldersModule,
  filesModule,
  fileFoldersModule,
  uploadsModule,
  tagsModule,
  quickFiltersModule,
  advertisersModule,
  contentGroupsModule,
  contentModule,
  datasourcesModule,
  licencesModule,
  devicesModule,
  deviceGroupsModule,
  displayModule,
  messageGroupsModule,
  campaignsModule,
  messagesModule,
  proofOfPlayModule,
  notificationChannelsModule,
  alertsModule,
  webhooksModule,
];

/** The one Hono app on `deps`, serving the routes of every module of `list` (their plugs installed first). */
export function createApp(deps: AppDeps, list: readonly ModuleManifest[] = modules, options: AppOptions = {}): App {
  installModules(list);

  return createHttpApp(deps, list, options);
}

/**
 * Puts every module's contributions into their plug points (teams, tags, file references, …). Idempotent:
 * each call installs the whole list again, so every app or job runner built in one process sees the same.
 */
function installModules(list: readonly ModuleManifest[] = modules): void {
  const byPoint = new Map<PlugPoint<unknown>, unknown[]>();
  for (const module of list) {
    for (const { point, items } of module.plugs ?? []) byPoint.set(point, [...(byPoint.get(point) ?? []), ...items]);
  }
  for (const [point, items] of byPoint) point.install(items);
}

/** Runs every module's `prepare` (reference data such as starter templates), in module order. */
export async function prepareModules(db: Database, list: readonly ModuleManifest[] = modules): Promise<void> {
  for (const module of list) await module.prepare?.(db);
}

/** Every module's background jobs. */
export function moduleJobs(deps: JobDeps, list: readonly ModuleManifest[] = modules) {
  installModules(list);

  return list.flatMap((module) => module.jobs?.(deps) ?? []);
}

/** Starts every module's WebSocket endpoints; a path declared twice stops start-up. */
export async function startModuleSockets(deps: SocketDeps, list: readonly ModuleManifest[] = modules): Promise<SocketEndpoint[]> {
  installModules(list);
  const endpoints: SocketEndpoint[] = [];
  for (const module of list) endpoints.push(...((await module.sockets?.(deps)) ?? []));
  const paths = endpoints.map((e) => e.path);
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice) {
    await Promise.allSettled(endpoints.map((e) => e.close()));
    throw new Error(`WebSocket path ${twice} is declared twice`);
  }

  return endpoints;
}

/**
 * Puts `metrics` on the service's database: the code holding `handle.db` counts into them (sockets, jobs, ingest),
 * and the scrape reads the pool and the pending commands. Answers the function that takes them off again.
 */
export function attachMetrics(metrics: Metrics, handle: DatabaseHandle): () => void {
  metrics.readPool(handle);
  metrics.readPendingCommands(() => countPendingCommands(handle.db));

  return installMetrics(handle.db, metrics);
}

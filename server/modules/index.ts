import { advertisersModule } from './advertisers/advertisers.module';
import { auditLogModule } from './audit-log/audit-log.module';
import { campaignsModule } from './campaigns/campaigns.module';
import { contentModule } from './content/content.module';
import { contentGroupsModule } from './content-groups/content-groups.module';
import { customersModule } from './customers/customers.module';
import { deviceGroupsModule } from './device-groups/device-groups.module';
import { devicesModule } from './devices/devices.module';
import { displayModule } from './display/display.module';
import { messageGroupsModule } from './message-groups/message-groups.module';
import { fileFoldersModule } from './file-folders/file-folders.module';
import { filesModule } from './files/files.module';
import { foldersModule } from './folders/folders.module';
import { mailModule } from './mail/mail.module';
import { messagesModule } from './messages/messages.module';
import type { Database } from '@/server/db/client';
import type { JobDeps, ModuleManifest, SocketDeps } from './module';
import type { SocketEndpoint } from '@/server/http/upgrade';
import type { PlugPoint } from '@/server/plug-point';
import { oauthModule } from './oauth/oauth.module';
import { quickFiltersModule } from './quick-filters/quick-filters.module';
import { resourceLimitsModule } from './resource-limits/resource-limits.module';
import { systemModule } from './system/system.module';
import { proofOfPlayModule } from './proof-of-play/proof-of-play.module';
import { tagsModule } from './tags/tags.module';
import { teamsModule } from './teams/teams.module';
import { uiProfilesModule } from './ui-profiles/ui-profiles.module';
import { uploadsModule } from './uploads/uploads.module';
import { usersModule } from './users/users.module';

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
  devicesModule,
  deviceGroupsModule,
  displayModule,
  messageGroupsModule,
  campaignsModule,
  messagesModule,
  proofOfPlayModule,
];

/**
 * Puts every module's contributions into their plug points (teams, tags, file references, …). Idempotent:
 * each call installs the whole list again, so every app or job runner built in one process sees the same.
 */
export function installModules(list: readonly ModuleManifest[] = modules): void {
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

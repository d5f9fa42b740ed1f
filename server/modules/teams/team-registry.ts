import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { definePlugPoint } from '@/server/plug-point';

/**
 * Every resource kind the spec lets be assigned to teams (spec 1 "Team assignment", spec 3 "Team").
 * The type name is the lowerCamel wire name used in paths: `/api/team/{type}Assignments`,
 * `/api/team/update{Type}Assignments`, `/api/team/{type}/{id}/assignments`, and the value of
 * `team_assignment.resource_type`. `cloudA…`/`cloudB…` are the spec's neutral stand-ins.
 */
export const teamResourceTypes = [
  'user',
  'device',
  'deviceGroup',
  'deviceContent',
  'contentGroup',
  'file',
  'fileFolder',
  'datasource',
  'campaign',
  'message',
  'messageGroup',
  'advertiser',
  'alertRule',
  'notificationChannel',
  'webhookEventAction',
  'webhookApiKey',
  'deviceInstallRule',
  'quickFilter',
  'customCredential',
  'cloudACredential',
  'cloudBTenant',
] as const;

export type TeamResourceType = (typeof teamResourceTypes)[number];

export type TeamResourceRegistration = {
  type: TeamResourceType;
  table: PgTable;
  idColumn: AnyPgColumn;
  customerIdColumn: AnyPgColumn;
  /** The column a wire request may name a row by instead of its id (users: `email`, stored in lower case). */
  naturalKey?: AnyPgColumn;
  /** Rows that may never join a team (users: OWNER and ADMIN), refused with 409 `conflictKey`. */
  cannotJoin?: { condition: SQL; key: string; message: string };
};

/** The team-capable resource kinds; each module lists its own in its manifest (`teamResources`). */
export const teamResources = definePlugPoint<TeamResourceRegistration>('teamResources', (r) => r.type);

/** The registration for a wire type name; the first letter may be upper case (`DeviceGroup`). */
export function findTeamResource(name: string): TeamResourceRegistration | undefined {
  return teamResources.get(name.charAt(0).toLowerCase() + name.slice(1));
}

export function capitalize(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

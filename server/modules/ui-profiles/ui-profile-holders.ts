import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * The users a UI profile is assigned to. The users module owns them and plugs this in (its manifest), so this
 * module names no users table.
 */
export type UiProfileHolders = {
  /** The ids among `userIds` that are not users of `customerId` (unknown or another tenant's). */
  foreignIds: (db: Executor, customerId: number, userIds: string[]) => Promise<string[]>;
  /** Assigns the profile to users of its tenant; answers the ids whose profile changed. */
  assign: (db: Executor, profile: { id: number; customerId: number }, userIds: string[]) => Promise<string[]>;
  /** Removes the profile from those of `userIds` that have it; answers the ids that had it. */
  unassign: (db: Executor, profileId: number, userIds: string[]) => Promise<string[]>;
  count: (db: Executor, profileId: number) => Promise<number>;
};

export const uiProfileHolders = definePlugPoint<UiProfileHolders>('uiProfileHolders', () => 'uiProfileHolders');

export function profileHolders(): UiProfileHolders {
  const holders = uiProfileHolders.items()[0];
  if (!holders) throw new Error('No UI profile holders are installed (the users module plugs them in)');

  return holders;
}

import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * Ends a user's signed-in sessions (a password change or setup). The module that owns the sessions (oauth: the
 * token families) plugs it in (its manifest), so this module names no token table.
 */
export type SessionStore = { name: string; revokeAllOfUser: (db: Executor, userId: string, reason: string) => Promise<void> };

export const sessionStores = definePlugPoint<SessionStore>('sessionStores', (s) => s.name);

/** Revokes every live session of the user in every store, inside the caller's transaction. */
export async function revokeAllFamiliesOfUser(db: Executor, userId: string, reason: string): Promise<void> {
  for (const store of sessionStores.items()) await store.revokeAllOfUser(db, userId, reason);
}

import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * The screens that play a message group, through the channels (campaigns) that carry it. The campaigns module plugs
 * it in (its manifest), so this module names no campaign table.
 */
export type MessageGroupScreens = { screensOf: (db: Executor, customerId: number, groupId: number) => Promise<string[]> };

export const messageGroupScreens = definePlugPoint<MessageGroupScreens>('messageGroupScreens', () => 'messageGroupScreens');

/** The screens playing the group; none while nothing is plugged in. */
export async function screensOfGroup(db: Executor, customerId: number, groupId: number): Promise<string[]> {
  const screens = messageGroupScreens.items()[0];

  return screens ? screens.screensOf(db, customerId, groupId) : [];
}

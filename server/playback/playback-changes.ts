import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * Something screens may be playing changed: content items (saved, deleted), files (created or moved into a
 * played folder, renamed, validity, replaced, deleted) or the customer's default emergency content. Announced inside the writing transaction, *before* a delete or a reference swap
 * removes what links the item to the screens, so a listener can still find the screens that show it (the
 * player protocol pushes `manifestChanged` to them; the notice goes out at commit).
 */
export type PlaybackChange = {
  customerId: number;
  contentIds?: readonly string[];
  fileIds?: readonly string[];
  /** The customer's default emergency content changed: screens in emergency without their own show another. */
  emergencyDefault?: boolean;
};
export type PlaybackChangeListener = { name: string; changed: (tx: Executor, change: PlaybackChange) => Promise<void> };
export const playbackChangeListeners = definePlugPoint<PlaybackChangeListener>('playbackChangeListeners', (l) => l.name);

export async function announcePlaybackChange(tx: Executor, change: PlaybackChange): Promise<void> {
  if (!change.contentIds?.length && !change.fileIds?.length && !change.emergencyDefault) return;
  for (const listener of playbackChangeListeners.items()) await listener.changed(tx, change);
}

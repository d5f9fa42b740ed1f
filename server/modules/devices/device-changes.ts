import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/** What changed on which devices, for whoever keeps connections to them (the player protocol). */
export type DeviceChange = { customerId: number; deviceIds: string[]; kind: 'settings' | 'commands' | 'deleted' };
/**
 * Hears device changes inside the writing transaction (`tx`), so what it records or announces (a NOTIFY goes
 * out at commit) happens exactly when the change does. It must stay cheap: it runs before the commit.
 */
export type DeviceChangeListener = { name: string; changed: (tx: Executor, change: DeviceChange) => Promise<void> };
export const deviceChangeListeners = definePlugPoint<DeviceChangeListener>('deviceChangeListeners', (l) => l.name);

/** Tells every listener about `change`, in the transaction that makes it. */
export async function announceDeviceChange(tx: Executor, change: DeviceChange): Promise<void> {
  if (change.deviceIds.length === 0) return;
  for (const listener of deviceChangeListeners.items()) await listener.changed(tx, change);
}

import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * A datasource's document changed (a refresh, a data write, a calendar event). Announced inside the writing
 * transaction; a listener's notices go out at commit (the display module pushes `datasourceChanged` to the
 * connected devices whose content uses it).
 */
export type DatasourceChange = { customerId: number; datasourceId: string };
export type DatasourceChangeListener = { name: string; changed: (tx: Executor, change: DatasourceChange) => Promise<void> };
export const datasourceChangeListeners = definePlugPoint<DatasourceChangeListener>('datasourceChangeListeners', (l) => l.name);

export async function announceDatasourceChange(tx: Executor, change: DatasourceChange): Promise<void> {
  for (const listener of datasourceChangeListeners.items()) await listener.changed(tx, change);
}

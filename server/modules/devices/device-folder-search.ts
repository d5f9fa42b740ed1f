import { definePlugPoint } from '@/server/plug-point';
import type { AnyResource } from '@/server/query';

/**
 * The device folder resource a `DEVICEGROUP` batch search compiles against (devices.batch.ts). The device-groups
 * module plugs it in (its manifest), so this module names no folder module.
 */
export type DeviceFolderSearch = { resource: AnyResource };

export const deviceFolderSearches = definePlugPoint<DeviceFolderSearch>('deviceFolderSearch', () => 'deviceFolderSearch');

export function deviceFolderResource(): AnyResource {
  const search = deviceFolderSearches.items()[0];
  if (!search) throw new Error('No device folder search is installed (the device-groups module plugs it in)');

  return search.resource;
}

import type { Database } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';
import type { DeviceTokenResponse } from './oauth.schemas';

/** Why a device's `client_credentials` grant is refused. */
export type DeviceGrantRefusal = 'invalidClient' | 'customerRestricted';

/**
 * Issues a device's token (`client_credentials`, spec 4 §2). The device module that owns device credentials
 * (display) plugs it in (its manifest), so the token endpoint names no device module.
 */
export type DeviceGrant = {
  grant: (db: Database, input: { deviceId: string; secret: string }) => Promise<DeviceTokenResponse | DeviceGrantRefusal>;
};

export const deviceGrants = definePlugPoint<DeviceGrant>('deviceGrant', () => 'deviceGrant');

export function deviceGrant(): DeviceGrant {
  const grant = deviceGrants.items()[0];
  if (!grant) throw new Error('No device grant is installed (the display module plugs it in)');

  return grant;
}

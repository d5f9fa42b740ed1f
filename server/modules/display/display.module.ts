import { deviceDirectories } from '@/server/auth/device-token';
import { deviceChangeListeners, type DeviceChange } from '@/server/modules/devices';
import { playbackChangeListeners } from '@/server/playback/playback-changes';
import { defineModule, plug } from '@/server/modules/module';
import { devicesAffectedBy, devicesUsingDatasource } from './manifest';
import { datasourceChangeListeners } from '@/server/modules/datasources';
import { notifyDatasourceChanged, notifyDevices, type DevicePushKind } from './device-push';
import { startDeviceSockets } from './display-socket';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '@/server/db/client';
import { findDeviceCallerByTokenHash, findRootDeviceGroup, insertCommand, insertDevice, recordDeviceActivity } from './display.queries';
import { registerDisplayRoutes } from './display.handlers';
import { deviceTokenGrant, removeExpiredDeviceTokens } from './display.service';
import { deviceGrants } from '@/server/modules/oauth';
import { campaignAiringReaders } from '@/server/modules/campaigns';
import { campaignAirings } from './campaign-airing';

const PUSH_KIND: Record<DeviceChange['kind'], Exclude<DevicePushKind, 'datasource'>> = {
  settings: 'manifest',
  commands: 'commands',
  deleted: 'revoked',
};

/** The security sweep's foreign resource: a pending command of a device of `customerId`. */
async function sweepDeviceCommand(db: Database, customerId: number): Promise<string> {
  const root = await findRootDeviceGroup(db, customerId);
  if (!root) throw new Error(`customer ${customerId} has no root device folder`);
  const device = await insertDevice(db, {
    id: uuidv7(),
    customerId,
    deviceGroupId: root.id,
    groupPath: root.path,
    name: 'sweep',
    secretHash: 'sweep',
    everConnected: true,
  });
  const command = await insertCommand(db, {
    id: uuidv7(),
    deviceId: device.id,
    customerId,
    name: 'refreshContent',
    expiresAt: new Date(Date.now() + 600_000),
  });

  return command.id;
}

/**
 * The player API (spec 4 §1–§3): registration, device tokens and their confinement to `/api/display/**`,
 * status, heartbeat and commands, and the tenant's claim (`assignToCustomer`). The device tables belong to
 * the devices module.
 */
export const displayModule = defineModule({
  name: 'display',
  routes: registerDisplayRoutes,
  plugs: [
    plug(deviceDirectories, { byTokenHash: findDeviceCallerByTokenHash, recordActivity: recordDeviceActivity }),
    // The token endpoint's client_credentials grant for devices (oauth names no device module).
    plug(deviceGrants, { grant: deviceTokenGrant }),
    // What the campaigns' airing endpoint asks: when a campaign next plays on the screens it targets.
    plug(campaignAiringReaders, { airings: campaignAirings }),
    // Device changes reach connected players: settings as manifestChanged, commands at once, deletion closes the socket.
    plug(deviceChangeListeners, { name: 'display', changed: (tx, change) => notifyDevices(tx, PUSH_KIND[change.kind], change.deviceIds) }),
    // Content or files they play changed: the screens showing them hear manifestChanged (when their ETag moved).
    plug(playbackChangeListeners, {
      name: 'display',
      changed: async (tx, change) => notifyDevices(tx, 'manifest', await devicesAffectedBy(tx, change)),
    }),
    // A datasource's document changed: the screens whose content shows it hear datasourceChanged (spec 5 §2).
    plug(datasourceChangeListeners, {
      name: 'display',
      changed: async (tx, change) => notifyDatasourceChanged(tx, change.datasourceId, await devicesUsingDatasource(tx, change)),
    }),
  ],
  sockets: startDeviceSockets,
  jobs: ({ db, log }) => [
    {
      name: 'display.remove-expired-tokens',
      cron: '*/15 * * * *',
      run: async () => {
        const removed = await removeExpiredDeviceTokens(db);
        if (removed > 0) log.info({ removed }, 'expired device tokens removed');
      },
    },
  ],
  sweep: { deviceCommand: sweepDeviceCommand },
});

import { defineModule } from '@/server/modules/module';
import { deviceAccessTokens, deviceCommands, deviceMetricSamples, devicePreviews, devices, deviceStatusChanges } from './devices.table';

/**
 * Screens (spec 3 "Device", spec 4): their tables. The management API, the player protocol and their
 * plugs join here as they are built (issue 13).
 */
export const devicesModule = defineModule({
  name: 'devices',
  tables: [devices, deviceStatusChanges, deviceCommands, deviceMetricSamples, devicePreviews, deviceAccessTokens],
});

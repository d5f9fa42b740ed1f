import type { CommandName } from '@/server/modules/devices/device-commands.schemas';

/** What the console calls each device command (the screen's "Recent commands"); webhook actions keep their own names. */
export const COMMAND_LABELS: Record<CommandName, string> = {
  assignContent: 'Assign content',
  detachContent: 'Detach content',
  refreshContent: 'Refresh content',
  cacheContent: 'Download content ahead',
  clearCache: 'Clear cache',
  display: 'Display',
  volume: 'Volume',
  brightness: 'Brightness',
  rotation: 'Rotation',
  restart: 'Restart',
  rebootTime: 'Daily reboot',
  workingHours: 'Working hours',
  time: 'Time zone',
  location: 'Location',
  setWeatherLocation: 'Weather location',
  sensorConfig: 'Sensor configuration',
  updateRule: 'Update rule',
  resetSensor: 'Reset sensors',
  advancedConfiguration: 'Advanced configuration',
  setUpdateVersionUpperLimit: 'Update version limit',
  datasource: 'Datasource',
  dataRowId: 'Data row',
  showName: 'Show name',
  requestLog: 'Request logs',
  update: 'Update player',
  emergency: 'Emergency',
  turnOnRapidPreviewMode: 'Rapid screenshots',
  takeHighResPreview: 'Screenshot',
  updateLicense: 'Licence',
};

/** A command's label: the table's, else its name as sent (a webhook device action such as `showToast`). */
export function commandLabel(name: string): string {
  return Object.hasOwn(COMMAND_LABELS, name) ? COMMAND_LABELS[name as CommandName] : name;
}

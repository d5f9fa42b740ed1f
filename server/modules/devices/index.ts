// The devices module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { deviceAlertCountBelow, deviceAlertSources } from './device-alerts';
export { announceDeviceChange, deviceChangeListeners } from './device-changes';
export type { DeviceChange } from './device-changes';
export { deviceFolderSearches } from './device-folder-search';
export { connectedDeviceCountSql } from './device-session-count';
export { previewForCaller, recordDevicePreview } from './device-previews.service';
export { countPendingCommands, insertDevice } from './devices.queries';
export { insertMetricSamples } from './device-metrics.queries';
export type { DevicePreviewRow } from './devices.queries';
export { deviceAccess, readDevice } from './devices.service';
export { runDeviceAction } from './device-actions';
export type { DeviceActionEffect, DeviceActionTarget } from './device-actions';
export { prepareLicence } from './device-licences';

/**
 * Messages the server pushes to a connected device (spec 4 §3 "WebSocket frames"). The WebSocket layer
 * (a later step) installs the transport with `setDevicePushTransport`; until then, and for a device that is
 * not connected, a push is dropped and the device learns the news from its next status call or heartbeat.
 */
export type DevicePush = { type: 'assigned' } | { type: 'manifestChanged'; etag: string } | { type: 'command'; command: unknown };

/** Delivers `message` to the device's open connections on this instance; answers whether any took it. */
export type DevicePushTransport = (deviceId: string, message: DevicePush) => boolean;

let transport: DevicePushTransport | undefined;

export function setDevicePushTransport(next: DevicePushTransport | undefined): void {
  transport = next;
}

/** Pushes `message` to the device if it is connected; never throws (a push is a hint, not a delivery guarantee). */
export function pushToDevice(deviceId: string, message: DevicePush): boolean {
  try {
    return transport?.(deviceId, message) ?? false;
  } catch {
    return false;
  }
}

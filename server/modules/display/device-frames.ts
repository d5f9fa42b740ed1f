import { z } from '@hono/zod-openapi';
import type { RawData, WebSocket } from 'ws';
import type { ErrorBody } from '@/server/http/errors';
import { CommandAckSchema, DisplayHeartbeatSchema } from './display.schemas';

/* The frames of a device's WebSocket (spec 4 §3): what a device may send, and how the server answers and closes. */

/**
 * WebSocket close codes: the device broke the frame policy; a newer connection of the device took its place; the
 * customer's `deviceSessionLimit` of connected devices is reached (`sessionLimitReason` says the limit).
 */
export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_REPLACED = 4002;
export const CLOSE_SESSION_LIMIT = 4003;
/**
 * The instance is stopping (SIGTERM, server/shutdown.ts): 1012 Service Restart (RFC 6455 §7.4, IANA registry), not
 * 1001 Going Away, which browsers also use for a page that navigates away. The player reconnects after a short
 * random delay, to whichever instance the proxy picks (player/connection.ts).
 */
export const CLOSE_SERVICE_RESTART = 1012;
export const SERVICE_RESTART_REASON = 'server restarting: reconnect';

/** The close reason of CLOSE_SESSION_LIMIT (ASCII, far below the 123 bytes a reason may take); players read the number. */
export const sessionLimitReason = (limit: number) =>
  `session limit: the account's limit of ${limit} connected ${limit === 1 ? 'screen' : 'screens'} is reached`;

const HeartbeatFrame = DisplayHeartbeatSchema.extend({ type: z.literal('heartbeat') });
const AckFrame = CommandAckSchema.extend({ type: z.literal('ack'), commandId: z.string().uuid() });
/** A frame a device sends: a heartbeat or a command's acknowledgement. */
export const DeviceFrame = z.discriminatedUnion('type', [HeartbeatFrame, AckFrame]);

/** A binary frame (devices send JSON text), queued in its place. */
export const BINARY: RawData = Buffer.alloc(0);

/** An error frame: the error body of DECISIONS §3 (an extension of spec 4's frames; players ignore unknown types). */
export const errorFrame = (body: ErrorBody) => ({ type: 'error', ...body });

/** Sends a frame if the connection is open; answers whether it was sent. */
export function send(session: { socket: WebSocket }, frame: Record<string, unknown>): boolean {
  if (session.socket.readyState !== session.socket.OPEN) return false;
  session.socket.send(JSON.stringify(frame));

  return true;
}

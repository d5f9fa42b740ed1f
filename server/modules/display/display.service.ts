import { randomInt, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@/server/config';
import { claimAttempt } from '@/server/auth/failure-limit';
import { hashToken, newOpaqueToken } from '@/server/auth/opaque-token';
import type { DeviceContext } from '@/server/context/service-context';
import type { Database, Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import type { DeviceTokenResponse } from '@/server/modules/oauth/oauth.schemas';
import type { DeviceGrantRefusal } from '@/server/modules/oauth';
import { changeDeviceStatus } from './device-status';
import * as sq from './device-sessions.queries';
import * as q from './display.queries';
import { manifestEtag } from './manifest';

/** The manifests' ETags of many devices at once (the WebSocket's announcements). */
export { manifestEtags } from './manifest';
import type {
  CommandAck,
  DeviceCommand,
  DisplayHeartbeat,
  DisplayHeartbeatResult,
  DisplayRegistration,
  DisplayRegistrationResult,
  DisplayStatus,
} from './display.schemas';

/** Spec 4 §1–§2. */
const ACTIVATION_CODE_SECONDS = 15 * 60;
const DEVICE_TOKEN_SECONDS = 3600;
const PREVIOUS_SECRET_SECONDS = 24 * 3600;
/** Commands answered per heartbeat (the rest follow on the next one, oldest first). */
const COMMANDS_PER_HEARTBEAT = 100;

type Deps = { db: Database; config: Config };

/** A four-digit code from the CSPRNG. */
function randomCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

/**
 * Gives an unassigned device a fresh code, unique among the unexpired ones. Random draws first; when they
 * keep colliding (a crowded code space), one uniform draw among the codes free right now. All 10 000 in use
 * is a 429: registrations are limited per address, so that means a flood, and the next minute frees codes.
 */
async function issueActivationCode(db: Executor, deviceId: string): Promise<{ code: string; expiresAt: Date } | undefined> {
  const attempt = async (code: string) => {
    const result = await q.trySetActivationCode(db, deviceId, code, ACTIVATION_CODE_SECONDS);
    if (result === 'notUnassigned') return null;

    return result === 'taken' ? undefined : result;
  };
  for (let i = 0; i < 8; i++) {
    const result = await attempt(randomCode());
    if (result !== undefined) return result ?? undefined;
  }
  const inUse = new Set(await q.findCodesInUse(db));
  const free = Array.from({ length: 10_000 }, (_, n) => String(n).padStart(4, '0')).filter((code) => !inUse.has(code));
  for (let i = 0; i < 3 && free.length > 0; i++) {
    const result = await attempt(free[randomInt(0, free.length)]!);
    if (result !== undefined) return result ?? undefined;
  }
  throw new TooManyRequestsError(60, 'No activation code is free right now; try again in a minute');
}

/**
 * POST /public-api/display/register (spec 4 §1–§2). A `serial` of a device pre-registered by a tenant that
 * no player has taken over yet takes that device over (new secret; its customer, folder and name stay);
 * otherwise a new unassigned device with an activation code. Registering counts as connecting
 * (`everConnected`), so the same serial later makes a new unassigned device.
 */
export async function registerDevice(deps: Deps, input: DisplayRegistration, address: string): Promise<DisplayRegistrationResult> {
  // Every registration counts, at most `deviceRegistrationsPerHour` (spec 4 §1: 30) per client address and hour.
  const policy = { limit: deps.config.deviceRegistrationsPerHour, windowSeconds: 3600 };
  const claim = await claimAttempt(deps.db, deps.config, [`register:${address}`], policy);
  if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many registrations from this address; try again later');
  const deviceSecret = newOpaqueToken();
  const reported = {
    type: input.type,
    platform: input.platform,
    hardwareKey: input.hardwareKey,
    version: input.version,
    firmwareVersion: input.firmwareVersion,
    nativeResolutionWidth: input.nativeResolutionWidth,
    nativeResolutionHeight: input.nativeResolutionHeight,
  };

  return withTransaction(deps.db, async (tx) => {
    const preRegistered = input.serial ? await q.lockPreRegisteredBySerial(tx, input.serial) : undefined;
    if (preRegistered) {
      const row = await q.updateDevice(tx, preRegistered.id, {
        ...reported,
        heartbeatSeconds: deps.config.deviceHeartbeatSeconds,
        timeZone: preRegistered.timeZone ?? input.timeZone,
        secretHash: hashToken(deviceSecret),
        previousSecretHash: null,
        previousSecretExpiresAt: null,
        everConnected: true,
      });
      const customerId = row.customerId!;
      const actor = {
        kind: 'device' as const,
        deviceId: row.id,
        deviceName: row.name,
        customerId,
        customerName: (await q.findCustomerName(tx, customerId)) ?? '',
      };
      await auditChange(
        tx,
        { actor },
        {
          action: 'connect',
          entityType: 'device',
          entityId: row.id,
          entityName: row.name,
          customerId,
          message: `Pre-registered device '${row.name}' taken over by a player with its serial`,
          changes: { serial: input.serial, type: input.type, platform: input.platform, version: input.version ?? null },
        },
      );

      return { deviceId: row.id, deviceSecret, heartbeatSeconds: row.heartbeatSeconds };
    }
    const row = await q.insertDevice(tx, {
      id: uuidv7(),
      customerId: null,
      serial: input.serial,
      timeZone: input.timeZone,
      ...reported,
      heartbeatSeconds: deps.config.deviceHeartbeatSeconds,
      secretHash: hashToken(deviceSecret),
      everConnected: true,
    });
    const code = await issueActivationCode(tx, row.id);

    return {
      deviceId: row.id,
      deviceSecret,
      activationCode: code?.code,
      activationCodeExpiresAt: code?.expiresAt.getTime(),
      heartbeatSeconds: row.heartbeatSeconds,
    };
  });
}

function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);

  return x.length === y.length && timingSafeEqual(x, y);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The device's token (`client_credentials`, spec 4 §2). The current secret works, and so does the previous
 * one for 24 h after a rotation until the current one is first used here.
 */
export async function deviceTokenGrant(
  db: Database,
  input: { deviceId: string; secret: string },
): Promise<DeviceTokenResponse | DeviceGrantRefusal> {
  if (!UUID.test(input.deviceId) || input.secret.length === 0 || input.secret.length > 200) return 'invalidClient';
  const row = await q.findDeviceCredentials(db, input.deviceId);
  if (!row) return 'invalidClient';
  const presented = hashToken(input.secret);
  const isCurrent = hashesEqual(presented, row.secretHash);
  const isPrevious =
    !isCurrent && row.previousSecretHash !== null && row.previousSecretLive && hashesEqual(presented, row.previousSecretHash);
  if (!isCurrent && !isPrevious) return 'invalidClient';
  if (row.customerRestricted) return 'customerRestricted';
  const accessToken = newOpaqueToken();
  await withTransaction(db, async (tx) => {
    if (isCurrent && row.previousSecretHash !== null) await q.retirePreviousSecret(tx, row.id, row.secretHash);
    await q.insertDeviceAccessToken(tx, { tokenHash: hashToken(accessToken), deviceId: row.id, lifetimeSeconds: DEVICE_TOKEN_SECONDS });
  });

  return { access_token: accessToken, token_type: 'bearer', expires_in: DEVICE_TOKEN_SECONDS, scope: 'device' };
}

/** POST /api/display/credentials/rotate: a new secret; the old one works until the new one is first used, or 24 h. */
export async function rotateDeviceSecret(ctx: DeviceContext): Promise<{ deviceSecret: string }> {
  const deviceSecret = newOpaqueToken();
  await withTransaction(ctx.db, async (tx) => {
    await q.rotateSecret(tx, ctx.device.deviceId, hashToken(deviceSecret), PREVIOUS_SECRET_SECONDS);
    if (ctx.actor) {
      await auditChange(
        tx,
        { actor: ctx.actor, requestId: ctx.requestId },
        {
          action: 'rotateCredentials',
          entityType: 'device',
          entityId: ctx.device.deviceId,
          entityName: ctx.device.deviceName,
          customerId: ctx.actor.customerId,
          message: `Device '${ctx.device.deviceName}' rotated its secret`,
        },
      );
    }
  });

  return { deviceSecret };
}

async function currentDevice(ctx: DeviceContext): Promise<q.DeviceRow> {
  const row = await q.findDevice(ctx.db, ctx.device.deviceId);
  // Deleted between authentication and now: as if the token had gone with it.
  if (!row) throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');

  return row;
}

/** GET /api/display/status. An unassigned device whose code has expired (or has none) gets a new one here. */
export async function deviceStatus(ctx: DeviceContext): Promise<DisplayStatus> {
  const row = await currentDevice(ctx);
  const common = { deviceId: row.id, heartbeatSeconds: row.heartbeatSeconds };
  if (row.customerId === null) {
    let code =
      row.activationCode && row.activationCodeExpiresAt && row.activationCodeExpiresAt.getTime() > Date.now()
        ? { code: row.activationCode, expiresAt: row.activationCodeExpiresAt }
        : undefined;
    code ??= await withTransaction(ctx.db, (tx) => issueActivationCode(tx, row.id));
    // Claimed meanwhile (no code was set): answer what the device is now.
    if (!code) return deviceStatus(ctx);

    return {
      ...common,
      assigned: false,
      activationCode: code.code,
      activationCodeExpiresAt: code.expiresAt.getTime(),
      serverTime: Date.now(),
    };
  }

  return {
    ...common,
    assigned: true,
    customerId: row.customerId,
    name: row.name,
    ...(row.timeZone ? { timeZone: row.timeZone } : {}),
    serverTime: Date.now(),
  };
}

/**
 * POST /api/display/heartbeat: the device is seen now (ONLINE, with a status-change row when that is news),
 * what it reports is stored, and it gets its pending commands and the manifest's ETag.
 */
export async function recordHeartbeat(ctx: DeviceContext, body: DisplayHeartbeat): Promise<DisplayHeartbeatResult> {
  const row = await withTransaction(ctx.db, async (tx) => {
    const updated = await q.recordHeartbeat(tx, ctx.device.deviceId, {
      localIpAddress: body.localIpAddress,
      version: body.version,
      firmwareVersion: body.firmwareVersion,
      deviceInfo: body.deviceInfo,
    });
    if (updated) await changeDeviceStatus(tx, { deviceId: updated.id, status: 'ONLINE' });

    return updated;
  });
  if (!row) throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  const commands = await q.findPendingCommands(ctx.db, row.id, COMMANDS_PER_HEARTBEAT);
  // The answer is the delivery: marked at once (a socket's deliveries wait for their acks, DeliveryMarks).
  await q.markCommandsDelivered(
    ctx.db,
    commands.map((c) => ({ id: c.id })),
  );

  return {
    serverTime: Date.now(),
    manifestEtag: await manifestEtag(ctx.db, row.id),
    heartbeatSeconds: row.heartbeatSeconds,
    commands: commands.map(commandView),
  };
}

export function commandView(row: {
  id: string;
  name: string;
  params: Record<string, unknown>;
  issuedAt: Date;
  expiresAt: Date;
}): DeviceCommand {
  return { id: row.id, name: row.name, params: row.params, issuedAt: row.issuedAt.getTime(), expiresAt: row.expiresAt.getTime() };
}

/** POST /api/display/commands/{commandId}/ack: the first acknowledgement is kept; repeating it changes nothing. */
export async function acknowledgeCommand(ctx: DeviceContext, input: { commandId: string; body: CommandAck }): Promise<void> {
  const ack = { ok: input.body.ok, result: input.body.result ?? null, error: input.body.error ?? null };
  if (await q.acknowledgeCommand(ctx.db, ctx.device.deviceId, input.commandId, ack)) return;
  // Another device's command is as unknown as a missing one.
  if (!(await q.commandOfDeviceExists(ctx.db, ctx.device.deviceId, input.commandId)))
    throw new NotFoundError('deviceCommand', input.commandId);
}

/** A WebSocket ticket lives this long (spec 4 §3). */
const SOCKET_TICKET_SECONDS = 30;
/** Unused tickets one device may hold: a new one drops the oldest (a player retrying never locks itself out). */
export const SOCKET_TICKETS_PER_DEVICE = 5;

/** POST /api/display/wsTicket: a single-use ticket for the WebSocket, stored as a hash. */
export async function issueSocketTicket(ctx: DeviceContext): Promise<{ ticket: string; expiresAt: number }> {
  const ticket = newOpaqueToken();
  const expiresAt = new Date(Date.now() + SOCKET_TICKET_SECONDS * 1000);
  await sq.insertSocketTicket(
    ctx.db,
    { ticketHash: hashToken(ticket), deviceId: ctx.device.deviceId, expiresAt },
    SOCKET_TICKETS_PER_DEVICE,
  );

  return { ticket, expiresAt: expiresAt.getTime() };
}

/** The clean-up job: device tokens past their hour and WebSocket tickets never used. */
export async function removeExpiredDeviceTokens(db: Database): Promise<number> {
  return (await q.deleteExpiredDeviceTokens(db)) + (await sq.deleteExpiredSocketTickets(db));
}

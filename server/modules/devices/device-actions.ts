import { and, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { uuidArrayParam } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { folderAccessCondition } from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { normalizeTags, textArray } from '@/server/modules/tags';
import { readOnlyExpression } from '@/server/modules/teams';
import { ownContent, resolveCommand, sendDeviceCommand, type CommandContext, type ResolvedCommand } from './device-commands';
import { batchCustomerId, deviceAccess } from './devices.service';
import type { ActionCommandName } from './device-commands.schemas';
import { findDevicesAccess, findVisibleDeviceGroups } from './devices.queries';
import { devices } from './devices.table';

/*
 * The device half of the webhook actions (spec 3 "Webhook action", spec 5 §4): an action's effect sent to its
 * targets through the one path of the batch commands (device-commands.ts `sendDeviceCommand`), so a connected
 * screen gets it at once and its command history lists it. State effects (emergency, assigned content, volume)
 * change the device record like the batch commands; the others become one-shot commands named as spec 4 §3 lists
 * them (`previewContent` is ours). The webhooks module maps an action and its trigger payload onto this.
 */

/** Which devices an action acts on: the action type's suffix (none, `_TAG`, `_GROUP`, `_ALL`). */
export type DeviceActionTarget =
  { kind: 'devices'; deviceIds: string[] } | { kind: 'tags'; tags: string[] } | { kind: 'folders'; folderIds: string[] } | { kind: 'all' };

/** What an action does to each device: the action type's base name (spec 3). */
export type DeviceActionEffect =
  | { name: 'emergency'; emergencyStatus: boolean }
  | { name: 'loadUrl'; url: string; durationMs?: number }
  | { name: 'pauseContent' }
  | { name: 'resumeContent' }
  | { name: 'refreshContent' }
  | { name: 'restart' }
  | { name: 'sensorEvent'; sensorData: unknown }
  | { name: 'assignContent'; contentId: string }
  | { name: 'previewContent'; contentId: string; durationMs?: number }
  | { name: 'wakeUp' }
  | { name: 'snooze' }
  | { name: 'showToast'; message: string; durationMs?: number }
  | { name: 'volume'; level: number };

/** Bounds of what a trigger may send: an address as the API takes one, a toast a screen can show, sensor data a frame carries. */
const DEVICE_ACTION_LIMITS = {
  urlLength: 2_048,
  messageLength: 1_000,
  /** `durationMs`: 1 s to a day. */
  minDurationMs: 1_000,
  maxDurationMs: 86_400_000,
  /** `sensorData` as JSON text, and how deeply it may nest. */
  sensorDataBytes: 65_536,
  sensorDataDepth: 32,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// PostgreSQL's jsonb (the command's parameters) refuses NUL and unpaired surrogates: refused here with a reason, never a 500.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

function invalid(parameter: string, message: string): ValidationError {
  return new ValidationError('request.error.invalid', message, { parameter });
}

/**
 * Sends the action's effect to its targets in the actor's tenant (a webhook key's customer) and answers how many
 * devices it reached. Only devices the actor's teams let it change are targets (a restricted key: its teams'
 * devices). A named device or folder that is not there for the actor is a NotFoundError (a device only readable
 * through its teams: ForbiddenError `team.error.readOnly`); tags or `all` matching no device reach 0 devices.
 * Joins the caller's transaction (`ctx.db` may be one).
 */
export async function runDeviceAction(
  ctx: ServiceContext<Actor>,
  input: { target: DeviceActionTarget; effect: DeviceActionEffect },
): Promise<{ affected: number; detail?: string }> {
  const customerId = actionCustomerId(ctx);
  const effect = checkedEffect(input.effect);
  const target = checkedTarget(input.target);

  return withTransaction(ctx.db, async (tx) => {
    const where = await targetCondition(tx, ctx, customerId, target);
    const command = await resolveEffect({ tx, customerId }, effect);
    const ids = await sendDeviceCommand(tx, ctx, {
      customerId,
      where,
      command,
      changes: { target, params: auditedParams(command.params) },
    });

    return { affected: ids.length, detail: detailOf(command.name, target, ids.length) };
  });
}

/** A key, a device: its own customer whatever the scope says; a user or the system: the one customer of the scope. */
function actionCustomerId(ctx: ServiceContext<Actor>): number {
  return ctx.actor.kind === 'apiKey' || ctx.actor.kind === 'device' ? ctx.actor.customerId : batchCustomerId(ctx);
}

/** The effect with its parameters checked and put in the form the player reads (unknown keys dropped). */
function checkedEffect(effect: DeviceActionEffect): DeviceActionEffect {
  switch (effect.name) {
    case 'emergency':
      if (typeof effect.emergencyStatus !== 'boolean') throw invalid('emergencyStatus', 'emergencyStatus is true or false');
      return { name: effect.name, emergencyStatus: effect.emergencyStatus };
    case 'loadUrl':
      return { name: effect.name, url: checkedUrl(effect.url), ...duration(effect.durationMs) };
    case 'showToast':
      return { name: effect.name, message: checkedMessage(effect.message), ...duration(effect.durationMs) };
    case 'volume':
      if (typeof effect.level !== 'number' || !Number.isInteger(effect.level) || effect.level < 0 || effect.level > 100)
        throw invalid('volumeLevel', `The volume is a whole number from 0 to 100 (got ${describe(effect.level)})`);
      return { name: effect.name, level: effect.level };
    case 'sensorEvent':
      return { name: effect.name, sensorData: checkedSensorData(effect.sensorData) };
    case 'assignContent':
      return { name: effect.name, contentId: checkedContentId(effect.contentId) };
    case 'previewContent':
      return { name: effect.name, contentId: checkedContentId(effect.contentId), ...duration(effect.durationMs) };
    case 'pauseContent':
    case 'resumeContent':
    case 'refreshContent':
    case 'restart':
    case 'wakeUp':
    case 'snooze':
      return { name: effect.name };
    default:
      return unknownEffect(effect);
  }
}

/** An effect name outside the list (the caller is typed, but its data comes from stored actions). */
function unknownEffect(effect: never): never {
  throw invalid('action', `Unknown device action effect '${describe((effect as { name?: unknown }).name)}'`);
}

/** A value named in a message, shortened (whatever it is: a stored action's data may be anything). */
function describe(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = typeof value;
  }

  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function checkedUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('url', 'loadUrl needs the address of a web page (actionParams.url)');
  if (value.length > DEVICE_ACTION_LIMITS.urlLength || isUnstorable(value))
    throw invalid('url', `The address is at most ${DEVICE_ACTION_LIMITS.urlLength} characters of text`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalid('url', `'${describe(value)}' is not a web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid('url', `A screen loads only http and https addresses (got ${url.protocol.replace(/:$/, '')})`);

  return url.href;
}

function checkedMessage(value: unknown): string {
  const message = typeof value === 'string' ? value.trim() : '';
  if (message === '') throw invalid('message', 'A toast needs a message');
  if (message.length > DEVICE_ACTION_LIMITS.messageLength)
    throw invalid('message', `A toast message is at most ${DEVICE_ACTION_LIMITS.messageLength} characters (got ${message.length})`);
  if (isUnstorable(message)) throw invalid('message', 'A toast message cannot hold NUL characters or broken Unicode');

  return message;
}

/** `durationMs` when given: a whole number of milliseconds, 1 s to a day. */
function duration(value: unknown): { durationMs?: number } {
  if (value === undefined) return {};
  const { minDurationMs, maxDurationMs } = DEVICE_ACTION_LIMITS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minDurationMs || value > maxDurationMs)
    throw invalid(
      'durationMs',
      `durationMs is a whole number of milliseconds from ${minDurationMs} to ${maxDurationMs} (got ${describe(value)})`,
    );

  return { durationMs: value };
}

function checkedContentId(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('contentId', 'Name the content (contentId)');

  return value.trim();
}

/**
 * Sensor data passes to the screen as it came, when it is JSON a command can carry: no NUL characters or broken
 * Unicode (jsonb refuses them), at most 32 levels deep and 64 KiB as JSON. Absent: null (an event without data).
 */
function checkedSensorData(value: unknown): unknown {
  if (value === undefined) return null;
  const { sensorDataBytes, sensorDataDepth } = DEVICE_ACTION_LIMITS;
  const check = (node: unknown, depth: number): void => {
    if (depth > sensorDataDepth) throw invalid('sensorData', `sensorData nests at most ${sensorDataDepth} levels deep`);
    if (node === null || typeof node === 'boolean') return;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) throw invalid('sensorData', 'sensorData holds only finite numbers');
      return;
    }
    if (typeof node === 'string') {
      if (isUnstorable(node)) throw invalid('sensorData', 'sensorData cannot hold NUL characters or broken Unicode');
      return;
    }
    if (Array.isArray(node)) {
      for (const entry of node) check(entry, depth + 1);
      return;
    }
    if (typeof node === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(node))) {
      for (const [key, entry] of Object.entries(node)) {
        check(key, depth + 1);
        check(entry, depth + 1);
      }
      return;
    }
    throw invalid('sensorData', 'sensorData is JSON: objects, arrays, text, numbers, true, false or null');
  };
  check(value, 0);
  const size = Buffer.byteLength(JSON.stringify(value));
  if (size > sensorDataBytes) throw invalid('sensorData', `sensorData is at most ${sensorDataBytes} bytes as JSON (got ${size})`);

  return value;
}

/** The target with its names checked: ids as uuids (lower case, once each), tags by spec 3's rules. */
function checkedTarget(target: DeviceActionTarget): DeviceActionTarget {
  switch (target.kind) {
    case 'devices':
      return { kind: target.kind, deviceIds: checkedIds(target.deviceIds, 'device') };
    case 'folders':
      return { kind: target.kind, folderIds: checkedIds(target.folderIds, 'deviceGroup') };
    case 'tags': {
      if (!Array.isArray(target.tags) || target.tags.length === 0) throw invalid('tag', 'Name at least one tag (actionParams.tag)');
      return { kind: target.kind, tags: normalizeTags(target.tags) };
    }
    case 'all':
      return { kind: target.kind };
    default:
      // Typed as never here; a stored action's data may still name a kind that no longer exists.
      throw invalid('target', `Unknown device action target '${describe((target as { kind?: unknown }).kind)}'`);
  }
}

/** Ids named by the action: at least one; one that is no uuid names nothing there is (NotFoundError, as an unknown id). */
function checkedIds(ids: unknown, resource: 'device' | 'deviceGroup'): string[] {
  if (!Array.isArray(ids) || ids.length === 0)
    throw invalid('targetIds', `Name at least one ${resource === 'device' ? 'device' : 'device folder'} (targetData.targetIds)`);
  const unique = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || !UUID.test(id.trim())) throw new NotFoundError(resource, describe(id));
    unique.add(id.trim().toLowerCase());
  }

  return [...unique];
}

/**
 * The devices of the target as a condition on `device`: always the tenant and the devices the actor may change
 * (visible, not read-only through its teams), like a batch's targets. Named devices and folders are checked first.
 */
async function targetCondition(tx: Executor, ctx: ServiceContext<Actor>, customerId: number, target: DeviceActionTarget): Promise<SQL> {
  const writable = and(
    sql`${devices.customerId} = ${customerId}`,
    deviceAccess(ctx),
    sql`not ${readOnlyExpression(ctx, 'device', devices.id)}`,
  )!;
  switch (target.kind) {
    case 'devices': {
      const found = await findDevicesAccess(tx, {
        customerId,
        ids: target.deviceIds,
        visible: deviceAccess(ctx),
        readOnly: readOnlyExpression(ctx, 'device', devices.id),
      });
      const byId = new Map(found.map((d) => [d.id, d]));
      for (const id of target.deviceIds) {
        const device = byId.get(id);
        if (!device || !device.visible) throw new NotFoundError('device', id);
        if (device.readOnly)
          throw new ForbiddenError('Your teams give read-only access to this device', 'team.error.readOnly', {
            resourceType: 'device',
            id,
          });
      }

      return and(writable, sql`${devices.id} = any(${uuidArrayParam(target.deviceIds)})`)!;
    }
    case 'folders': {
      const visible = await findVisibleDeviceGroups(tx, {
        customerId,
        ids: target.folderIds,
        visible: folderAccessCondition(ctx, deviceGroups, 'deviceGroup'),
      });
      const missing = target.folderIds.find((id) => !visible.includes(id));
      if (missing) throw new NotFoundError('deviceGroup', missing);

      // In a folder or below it: the device's copy of its folder's path names the folder (GIN-indexed).
      return and(writable, sql`${devices.groupPath} && ${uuidArrayParam(target.folderIds)}`)!;
    }
    case 'tags':
      // Carrying any of the tags (the tags GIN index); tags keep their case, as everywhere.
      return and(writable, sql`${devices.tags} && ${textArray(target.tags)}`)!;
    case 'all':
      return writable;
  }
}

/** The command an effect sends: the batch command of the same name where there is one, else a one-shot command of spec 4 §3. */
async function resolveEffect(ctx: CommandContext, effect: DeviceActionEffect): Promise<ResolvedCommand> {
  switch (effect.name) {
    case 'emergency':
      return resolveCommand(ctx, 'emergency', { params: { emergencyStatus: effect.emergencyStatus }, body: undefined });
    case 'assignContent':
      return resolveCommand(ctx, 'assignContent', {
        params: { contentId: effect.contentId, asAssigned: true, asEmergency: false },
        body: undefined,
      });
    case 'volume':
      return resolveCommand(ctx, 'volume', { params: { level: effect.level }, body: undefined });
    case 'restart':
    case 'refreshContent':
      return resolveCommand(ctx, effect.name, { params: {}, body: undefined });
    case 'previewContent':
      // As the batch's content commands: the tenant's own content, 404 otherwise.
      return oneShot(effect.name, { contentId: await ownContent(ctx, effect.contentId), ...durationOf(effect) });
    case 'loadUrl':
      return oneShot(effect.name, { url: effect.url, ...durationOf(effect) });
    case 'showToast':
      return oneShot(effect.name, { message: effect.message, ...durationOf(effect) });
    case 'sensorEvent':
      return oneShot(effect.name, { sensorData: effect.sensorData });
    case 'pauseContent':
    case 'resumeContent':
    case 'wakeUp':
    case 'snooze':
      return oneShot(effect.name, {});
  }
}

/** A one-shot command only actions send, by its name in spec 4 §3 (the history and the player know these names). */
function oneShot(name: ActionCommandName, params: Record<string, unknown>): ResolvedCommand {
  return { kind: 'oneShot', name, params };
}

function durationOf(effect: { durationMs?: number }): { durationMs?: number } {
  return effect.durationMs === undefined ? {} : { durationMs: effect.durationMs };
}

/** The audit entry keeps the parameters, but not sensor data whole (it may be large): its size instead. */
function auditedParams(params: Record<string, unknown>): Record<string, unknown> {
  if (!('sensorData' in params)) return params;
  const size = Buffer.byteLength(JSON.stringify(params.sensorData));

  return size > 1_024 ? { sensorDataBytes: size } : params;
}

/** What the execution record says beside the count. */
function detailOf(name: string, target: DeviceActionTarget, affected: number): string {
  const devicesText = affected === 1 ? '1 device' : `${affected} devices`;
  if (affected > 0) return `${name} sent to ${devicesText}`;
  const which = {
    devices: 'named device',
    tags: `device tagged ${target.kind === 'tags' ? target.tags.join(' or ') : ''}`,
    folders: 'device in the named folders',
    all: 'device in the tenant',
  }[target.kind];

  return `${name} reached no device: no ${which} that this caller may change`;
}

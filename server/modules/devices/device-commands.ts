import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import type { Role } from '@/server/context/roles';
import type { Executor } from '@/server/db/client';
import { uuidArrayParam } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditChange } from '@/server/modules/audit-log';
import { type commandBodies, type commandParams, type CommandName } from './device-commands.schemas';
import { announceDeviceChange } from './device-changes';
import { licenceColumnValues, prepareLicence } from './device-licences';
import { batchTargets, type ApplyOn } from './devices.batch';
import { contentOfCustomer, issueCommands, updateTargetDevices } from './devices.queries';
import { batchCustomerId } from './devices.service';

import { devices } from './devices.table';
import type { z } from '@hono/zod-openapi';

/*
 * The batch device commands (spec 3; spec 4 §3): each either sets a state on the device record (its
 * manifest's settings, its content, its emergency status, its licence) in one UPDATE, or becomes a command
 * for each device in one INSERT … SELECT (kept until acknowledged or expired). Which devices: the batch
 * targets (tenant, search, applyOn, team writability). After the commit, listeners (the player connection)
 * learn which devices changed.
 */

type Params<N extends CommandName> = z.infer<(typeof commandParams)[N]>;
type Body<N extends CommandName> = N extends keyof typeof commandBodies ? z.infer<(typeof commandBodies)[N]> : undefined;

/** How a command acts: a setting of the manifest, columns of the device, or a one-shot command for the player. */
type Effect<N extends CommandName> =
  | { kind: 'setting'; key: string; value: (params: Params<N>, body: Body<N>) => unknown }
  | { kind: 'columns'; set: (params: Params<N>, body: Body<N>, ctx: CommandContext) => Promise<ColumnValues> | ColumnValues }
  /** Columns whose write takes a lock first and is checked after (the licence rules): `verify` runs after the UPDATE. */
  | { kind: 'checkedColumns'; prepare: (params: Params<N>, ctx: CommandContext) => Promise<CheckedColumns> }
  | {
      kind: 'command';
      params: (params: Params<N>, body: Body<N>, ctx: CommandContext) => Promise<Record<string, unknown>> | Record<string, unknown>;
    };

/** What resolving a command reads with: the transaction and the tenant. */
export type CommandContext = { tx: Executor; customerId: number };

/**
 * The device columns a command sets, by SQL column name, each to its value: keyed, so one statement can
 * never assign a column twice (PostgreSQL refuses "multiple assignments to same column" with a 500).
 */
type ColumnValues = Record<string, SQL>;

type CheckedColumns = { set: ColumnValues; verify: () => Promise<void> };

/** `col = value, …` of an UPDATE. */
function assignments(values: ColumnValues): SQL {
  return sql.join(
    Object.entries(values).map(([name, value]) => sql`${sql.identifier(name)} = ${value}`),
    sql`, `,
  );
}

export type CommandDefinition<N extends CommandName = CommandName> = {
  minRole: Role;
  summary: string;
  /** DELETE removes the setting (spec: `rebootTime`, `datasource`, `dataRowId`). */
  deletable?: boolean;
  effect: Effect<N>;
};

/** Content commands change only what plays: APPROVER (DECISIONS §8); the rest TECHNICIAN. */
const PLAYS = 'APPROVER' as const;
const TECH = 'TECHNICIAN' as const;

/** The tenant's content item, or 404 (another tenant's id included). */
export async function ownContent(ctx: CommandContext, contentId: string): Promise<string> {
  const found = await contentOfCustomer(ctx.tx, ctx.customerId, contentId);
  if (!found) throw new NotFoundError('deviceContent', contentId);

  return found;
}

export const COMMANDS: { [N in CommandName]: CommandDefinition<N> } = {
  assignContent: {
    minRole: PLAYS,
    summary: 'Assign content (as the assigned and/or the emergency content)',
    effect: {
      kind: 'columns',
      set: async (p, _b, ctx) => {
        const asAssigned = p.asAssigned ?? true;
        const asEmergency = p.asEmergency ?? false;
        if (!asAssigned && !asEmergency)
          throw new ValidationError(INVALID_COMBINATION, 'Assign the content as assigned, as emergency content, or both', {
            parameter: 'asAssigned',
          });
        const id = await ownContent(ctx, p.contentId);

        return { ...(asAssigned && { content_id: sql`${id}::uuid` }), ...(asEmergency && { emergency_content_id: sql`${id}::uuid` }) };
      },
    },
  },
  detachContent: {
    minRole: PLAYS,
    summary: 'Detach the assigned and/or the emergency content',
    effect: {
      kind: 'columns',
      set: (p) => {
        const values: ColumnValues = {
          ...((p.detachAssigned ?? true) && { content_id: sql`null` }),
          ...((p.detachEmergency ?? false) && { emergency_content_id: sql`null` }),
        };
        if (Object.keys(values).length === 0)
          throw new ValidationError(INVALID_COMBINATION, 'Detach the assigned content, the emergency content, or both', {
            parameter: 'detachAssigned',
          });

        return values;
      },
    },
  },
  refreshContent: { minRole: PLAYS, summary: 'Reload the content now', effect: { kind: 'command', params: () => ({}) } },
  cacheContent: {
    minRole: PLAYS,
    summary: 'Download a content item ahead of time',
    effect: {
      kind: 'command',
      params: async (p, _b, ctx) => ({
        contentId: await ownContent(ctx, p.contentId),
        ...(p.cacheAt ? { cacheAt: Date.parse(p.cacheAt) } : {}),
      }),
    },
  },
  clearCache: { minRole: TECH, summary: "Clear the player's cache", effect: { kind: 'command', params: (_p, b) => ({ ...(b ?? {}) }) } },
  display: { minRole: TECH, summary: 'Turn the display on or off', effect: { kind: 'setting', key: 'display', value: (p) => p.enabled } },
  volume: { minRole: TECH, summary: 'Set the volume (0–100)', effect: { kind: 'setting', key: 'volume', value: (p) => p.level } },
  brightness: {
    minRole: TECH,
    summary: 'Set the brightness (0–100)',
    effect: { kind: 'setting', key: 'brightness', value: (p) => p.level },
  },
  rotation: {
    minRole: TECH,
    summary: 'Rotate the screen or the web view',
    effect: { kind: 'setting', key: 'rotation', value: (p) => ({ angle: p.angle, type: p.type }) },
  },
  restart: { minRole: TECH, summary: 'Restart the player', effect: { kind: 'command', params: () => ({}) } },
  rebootTime: {
    minRole: TECH,
    summary: 'Set (or, with DELETE, remove) the daily reboot time',
    deletable: true,
    effect: { kind: 'setting', key: 'rebootTime', value: (p) => p.time },
  },
  workingHours: { minRole: TECH, summary: 'Set the working hours', effect: { kind: 'setting', key: 'workingHours', value: (_p, b) => b } },
  time: {
    minRole: TECH,
    summary: "Set the device's time zone",
    effect: { kind: 'columns', set: (p) => ({ time_zone: sql`${p.timeZone}` }) },
  },
  location: { minRole: TECH, summary: "Set the device's location", effect: { kind: 'setting', key: 'location', value: (_p, b) => b } },
  setWeatherLocation: {
    minRole: TECH,
    summary: 'Set the location weather widgets show',
    effect: { kind: 'setting', key: 'weatherLocation', value: (p) => p.weatherLocation },
  },
  sensorConfig: {
    minRole: TECH,
    summary: 'Set the sensor configuration',
    effect: { kind: 'setting', key: 'sensorConfig', value: (_p, b) => b },
  },
  updateRule: { minRole: TECH, summary: 'Set the update rule', effect: { kind: 'setting', key: 'updateRule', value: (_p, b) => b } },
  resetSensor: { minRole: TECH, summary: 'Reset the sensors', effect: { kind: 'command', params: () => ({}) } },
  advancedConfiguration: {
    minRole: TECH,
    summary: 'Set, merge or remove advanced configuration keys',
    effect: {
      kind: 'columns',
      set: (p, b) => {
        const current = sql`coalesce(${devices.settings}->'advancedConfiguration', '{}'::jsonb)`;
        const body = JSON.stringify(b ?? {});
        const next =
          p.updateMethod === 'SET'
            ? sql`${body}::jsonb`
            : p.updateMethod === 'ADD_OR_UPDATE'
              ? sql`${current} || ${body}::jsonb`
              : sql`${current} - array(select jsonb_object_keys(${body}::jsonb))`;

        return { settings: sql`${devices.settings} || jsonb_build_object('advancedConfiguration', ${next})` };
      },
    },
  },
  setUpdateVersionUpperLimit: {
    minRole: TECH,
    summary: 'Cap the player version updates install',
    effect: { kind: 'setting', key: 'updateVersionUpperLimit', value: (p) => p.version },
  },
  datasource: {
    minRole: TECH,
    summary: 'Bind (or, with DELETE, unbind) a datasource',
    deletable: true,
    effect: { kind: 'setting', key: 'datasourceId', value: (p) => p.datasourceId },
  },
  dataRowId: {
    minRole: TECH,
    summary: 'Bind (or, with DELETE, unbind) a data row',
    deletable: true,
    effect: { kind: 'setting', key: 'dataRowId', value: (p) => p.dataRowId },
  },
  showName: {
    minRole: TECH,
    summary: 'Show or hide the device name on screen',
    effect: { kind: 'setting', key: 'showName', value: (p) => p.enabled },
  },
  requestLog: {
    minRole: TECH,
    summary: 'Ask the player for its logs',
    effect: { kind: 'command', params: (p) => ({ systemLog: p.systemLog ?? false, systemReport: p.systemReport ?? false }) },
  },
  update: {
    minRole: TECH,
    summary: 'Update the player software',
    effect: { kind: 'command', params: (p) => (p.version ? { version: p.version } : {}) },
  },
  emergency: {
    minRole: TECH,
    summary: 'Turn emergency mode on or off',
    effect: { kind: 'columns', set: (p) => ({ emergency_status: sql`${p.emergencyStatus}` }) },
  },
  turnOnRapidPreviewMode: {
    minRole: TECH,
    summary: 'Take screenshots often for a while',
    effect: { kind: 'command', params: (p) => ({ duration: p.duration, minimumDelayBetweenPreviews: p.minimumDelayBetweenPreviews }) },
  },
  takeHighResPreview: { minRole: TECH, summary: 'Take one full-resolution screenshot', effect: { kind: 'command', params: () => ({}) } },
  updateLicense: {
    minRole: TECH,
    summary: 'Change the licence of the devices',
    effect: {
      kind: 'checkedColumns',
      prepare: async (p, ctx) => {
        const licence = await prepareLicence(ctx.tx, ctx.customerId, p);

        return { set: licenceColumnValues(licence.columns), verify: licence.verify };
      },
    },
  },
};

/** A one-shot command lives this long unless acknowledged (spec 4 §3). */
const COMMAND_LIFETIME_MS = 10 * 60_000;

/**
 * A command with its parameters checked, ready for the devices: a state command's device columns (and what its
 * command row carries), or a one-shot command's parameters (`startsAt`: when it may run, epoch ms; its lifetime
 * counts from then). Built from `COMMANDS` by `resolveCommand`, or by the webhook device actions (device-actions.ts)
 * for the one-shot effects that have no batch route (`showToast`, `loadUrl`, …).
 */
export type ResolvedCommand =
  | {
      kind: 'state';
      name: string;
      set: ColumnValues;
      params: Record<string, unknown>;
      remove?: boolean;
      /** Runs after the devices were written, in the same transaction (the licence checks); throws to refuse. */
      verify?: () => Promise<void>;
    }
  | { kind: 'oneShot'; name: string; params: Record<string, unknown>; startsAt?: number };

/**
 * The routes' entry: `params` and `body` are what the route of `name` validated with `commandParams[name]`
 * and `commandBodies[name]` (one route per command, registered in a loop, so TypeScript cannot pair the
 * name with its shapes there; this is the one place that states the pairing).
 */
export function runValidatedDeviceCommand(
  ctx: ServiceContext,
  name: CommandName,
  input: { search?: string; applyOn?: ApplyOn; params: Record<string, unknown>; body: unknown; remove?: boolean },
): Promise<{ updated: number }> {
  return runDeviceCommand(ctx, name, { ...input, params: input.params as Params<CommandName>, body: input.body as Body<CommandName> });
}

/** What a state command's row carries to the player and the history: its parameters, its body, and whether it removed the setting. */
function stateCommandParams(input: { params: unknown; body: unknown; remove?: boolean }): Record<string, unknown> {
  return {
    ...(input.params as Record<string, unknown>),
    ...(input.body === undefined ? {} : { body: input.body }),
    ...(input.remove ? { remove: true } : {}),
  };
}

/** Checks the parameters of the command `name` of `COMMANDS` (the tenant's content, the licence rules, …) and answers what it does. */
export async function resolveCommand<N extends CommandName>(
  ctx: CommandContext,
  name: N,
  input: { params: Params<N>; body: Body<N>; remove?: boolean },
): Promise<ResolvedCommand> {
  const { effect } = COMMANDS[name] as unknown as CommandDefinition<N>;
  if (effect.kind === 'command') {
    const params = await effect.params(input.params, input.body, ctx);

    return { kind: 'oneShot', name, params, ...(typeof params.cacheAt === 'number' ? { startsAt: params.cacheAt } : {}) };
  }
  if (effect.kind === 'checkedColumns') {
    const { set, verify } = await effect.prepare(input.params, ctx);

    return { kind: 'state', name, set, verify, params: stateCommandParams(input) };
  }
  const set: ColumnValues =
    effect.kind === 'columns'
      ? await effect.set(input.params, input.body, ctx)
      : input.remove
        ? { settings: sql`${devices.settings} - ${effect.key}::text` }
        : {
            settings: sql`${devices.settings} || jsonb_build_object(${effect.key}::text, ${JSON.stringify(effect.value(input.params, input.body) ?? null)}::jsonb)`,
          };

  return { kind: 'state', name, set, params: stateCommandParams(input), remove: input.remove };
}

/**
 * The one way a command reaches devices, whoever sends it (a batch route, a webhook action): over the devices
 * `where` selects (the caller has put the tenant and the team writability in it), a state command is one UPDATE
 * and then a command row for every device it changed, a one-shot command one INSERT … SELECT of a row per device;
 * one audit entry (`changes`: what the caller targeted, with `updated` added); then the listeners hear which
 * devices changed (the player connection pushes the command at once). Inside the caller's transaction; answers
 * the devices reached.
 */
export async function sendDeviceCommand(
  tx: Executor,
  ctx: { actor: Actor; requestId?: string },
  input: { customerId: number; where: SQL; command: ResolvedCommand; changes: Record<string, unknown> },
): Promise<string[]> {
  const { customerId, command } = input;
  let ids: string[];
  if (command.kind === 'oneShot') {
    ids = await issueCommands(tx, {
      where: input.where,
      name: command.name,
      params: command.params,
      expiresAt: new Date(Math.max(Date.now(), command.startsAt ?? 0) + COMMAND_LIFETIME_MS),
    });
  } else {
    ids = await updateTargetDevices(tx, assignments(command.set), input.where);
    await command.verify?.();
    // A state change is a command too: its row is what the player acknowledges (after applying it, spec 4
    // §3: the manifest holds the new state) and what the screen's history and settings show as sent,
    // delivered and confirmed. One row per changed device, in the same transaction.
    if (ids.length > 0) {
      ids = await issueCommands(tx, {
        where: sql`${devices.id} = any(${uuidArrayParam(ids)})`,
        name: command.name,
        params: command.params,
        expiresAt: new Date(Date.now() + COMMAND_LIFETIME_MS),
      });
    }
  }
  const removed = command.kind === 'state' && command.remove === true;
  await auditChange(tx, ctx, {
    entityType: 'device',
    customerId,
    action: removed ? `remove ${command.name}` : command.name,
    message: `${removed ? 'Removed' : 'Command'} ${command.name} ${removed ? 'from' : 'for'} ${ids.length === 1 ? '1 device' : `${ids.length} devices`}`,
    changes: { ...input.changes, updated: ids.length },
  });
  // A state change moves the manifest (`settings`) and brings a command to acknowledge (`commands`).
  if (command.kind === 'state') await announceDeviceChange(tx, { customerId, deviceIds: ids, kind: 'settings' });
  await announceDeviceChange(tx, { customerId, deviceIds: ids, kind: 'commands' });

  return ids;
}

/** Runs one batch command over the targeted devices; answers how many devices it changed or sent a command to. */
async function runDeviceCommand<N extends CommandName>(
  ctx: ServiceContext,
  name: N,
  input: { search?: string; applyOn?: ApplyOn; params: Params<N>; body: Body<N>; remove?: boolean },
): Promise<{ updated: number }> {
  const customerId = batchCustomerId(ctx);
  const where = batchTargets(ctx, customerId, input);
  const ids = await withTransaction(ctx.db, async (tx) => {
    const command = await resolveCommand({ tx, customerId }, name, input);

    return sendDeviceCommand(tx, ctx, {
      customerId,
      where,
      command,
      changes: {
        search: input.search ?? null,
        applyOn: input.applyOn ?? 'DEVICE',
        params: input.params ?? {},
        ...(input.body === undefined ? {} : { body: input.body }),
      },
    });
  });

  return { updated: ids.length };
}

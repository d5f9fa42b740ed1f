import type { ServiceContext } from '@/server/context/service-context';
import { NotFoundError } from '@/server/errors';
import { COMMANDS } from './device-commands';
import { COMMAND_HISTORY_SIZE, type CommandName, type DeviceCommandEntry, type DeviceSettings } from './device-commands.schemas';
import { findCommandHistory, findDeviceState, findNewestCommands, type CommandHistoryRow } from './devices.queries';
import { readDevice } from './devices.service';

/* What a device was sent and what it keeps: the reads of the commands device-commands.ts issues (spec 4 §3). */

/** GET /api/v2/device/{id}/commands (VIEWER): the device's newest commands and what became of each. */
export async function deviceCommandHistory(ctx: ServiceContext, id: string): Promise<DeviceCommandEntry[]> {
  const device = await readDevice(ctx.db, ctx, id, 'id');
  const rows = await findCommandHistory(ctx.db, device.id!, COMMAND_HISTORY_SIZE);
  const now = Date.now();

  return rows.map((row) => commandEntry(row, now));
}

/** The commands that set a state the device keeps (its settings, content, emergency, …), not one-shot ones. */
const STATE_COMMANDS = (Object.keys(COMMANDS) as CommandName[]).filter((name) => COMMANDS[name].effect.kind !== 'command');

/** GET /api/v2/device/{id}/settings (VIEWER): the values the state commands set, and the newest command of each. */
export async function deviceSettings(ctx: ServiceContext, id: string): Promise<DeviceSettings> {
  const device = await readDevice(ctx.db, ctx, id, 'id');
  const [state, rows] = await Promise.all([findDeviceState(ctx.db, device.id!), findNewestCommands(ctx.db, device.id!, STATE_COMMANDS)]);
  if (!state) throw new NotFoundError('device', id);
  const now = Date.now();

  return {
    settings: state.settings,
    emergencyStatus: state.emergencyStatus,
    commands: rows.sort((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime()).map((row) => commandEntry(row, now)),
  };
}

/** A command row as the console reads it, with what became of it at `now`. */
function commandEntry(row: CommandHistoryRow, now: number): DeviceCommandEntry {
  return {
    id: row.id,
    name: row.name,
    params: row.params,
    issuedAt: row.issuedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ...(row.deliveredAt ? { deliveredAt: row.deliveredAt.toISOString() } : {}),
    ...(row.acknowledgedAt ? { acknowledgedAt: row.acknowledgedAt.toISOString() } : {}),
    ...(row.ok === null ? {} : { ok: row.ok }),
    ...(row.error === null ? {} : { error: row.error }),
    status: row.acknowledgedAt
      ? row.ok === false
        ? 'FAILED'
        : 'ACKNOWLEDGED'
      : row.expiresAt.getTime() <= now
        ? 'EXPIRED'
        : row.deliveredAt
          ? 'DELIVERED'
          : 'PENDING',
  };
}

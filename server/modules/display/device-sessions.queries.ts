import { eq, lt, or, sql } from 'drizzle-orm';
import type { DeviceCallerRecord } from '@/server/auth/device-token';
import type { Database, Executor } from '@/server/db/client';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { customers } from '@/server/tenant/customers.table';
import { connectedDeviceCountSql } from '@/server/modules/devices';
import { deviceCommands, devices, deviceSessions, deviceSocketTickets, deviceStatusChanges } from '@/server/modules/devices/devices.table';
import { activityDue } from './display.queries';

/* The device WebSocket's statements: tickets, and the connected devices, each set-based over all of them. */

/**
 * A new ticket for the device; of its unused ones only the newest `keep` (this one included) stay, so however
 * many tickets a device asks for, it can open at most that many connections with them. One statement.
 */
export async function insertSocketTicket(
  db: Executor,
  values: { ticketHash: string; deviceId: string; expiresAt: Date },
  keep: number,
): Promise<void> {
  await execRows(
    db,
    sql`with dropped as (
      delete from ${deviceSocketTickets} where ${deviceSocketTickets.ticketHash} in (
        select t.ticket_hash from ${deviceSocketTickets} t where t.device_id = ${values.deviceId} order by t.expires_at desc, t.ticket_hash offset ${keep - 1}
      )
    )
    insert into ${deviceSocketTickets} (${sql.identifier('ticket_hash')}, ${sql.identifier('device_id')}, ${sql.identifier('expires_at')})
    values (${values.ticketHash}, ${values.deviceId}, ${values.expiresAt.toISOString()}::timestamptz)`,
    { prepared: true },
  );
}

/**
 * Takes the ticket (single use: deleted whether or not it is still valid) and answers who it stands for, as
 * the token look-up does: undefined for an unknown or expired ticket or a deleted device.
 */
export async function redeemSocketTicket(db: Executor, ticketHash: string): Promise<DeviceCallerRecord | undefined> {
  const rows = await execRows<{
    device_id: string;
    device_name: string;
    customer_id: number | string | null;
    customer_name: string | null;
    restricted: boolean;
  }>(
    db,
    sql`with taken as (
        delete from ${deviceSocketTickets} where ${deviceSocketTickets.ticketHash} = ${ticketHash}
        returning ${deviceSocketTickets.deviceId} as device_id, ${deviceSocketTickets.expiresAt} as expires_at
      )
      select d.id as device_id, d.name as device_name, d.customer_id, c.name as customer_name, coalesce(c.restricted, false) as restricted
      from taken t join ${devices} d on d.id = t.device_id left join ${customers} c on c.id = d.customer_id
      where t.expires_at > now()`,
    { prepared: true },
  );
  const row = rows[0];
  if (!row) return undefined;

  return {
    deviceId: row.device_id,
    deviceName: row.device_name,
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    customerName: row.customer_name,
    customerRestricted: row.restricted,
    activityDue: false,
  };
}

export async function deleteExpiredSocketTickets(db: Executor): Promise<number> {
  const rows = await db
    .delete(deviceSocketTickets)
    .where(lt(deviceSocketTickets.expiresAt, sql`now()`))
    .returning({ ticketHash: deviceSocketTickets.ticketHash });

  return rows.length;
}

/** The connected devices that may stay connected: they exist and their customer is not restricted. */
export async function findDevicesAllowedToConnect(
  db: Executor,
  deviceIds: readonly string[],
): Promise<Array<{ id: string; customerId: number | null; name: string }>> {
  if (deviceIds.length === 0) return [];
  const rows = await execRows<{ id: string; customer_id: number | string | null; name: string }>(
    db,
    sql`select d.id, d.customer_id, d.name from ${devices} d left join ${customers} c on c.id = d.customer_id
      where d.id = any(${uuidArrayParam(deviceIds)}) and not coalesce(c.restricted, false)`,
  );

  return rows.map((r) => ({ id: r.id, customerId: r.customer_id === null ? null : Number(r.customer_id), name: r.name }));
}

/** The heartbeat interval of each device of `deviceIds` (for the `hello` frame). */
export async function findHeartbeatSeconds(db: Executor, deviceIds: readonly string[]): Promise<Map<string, number>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await execRows<{ id: string; heartbeatSeconds: number }>(
    db,
    sql`select d.id::text as id, d.heartbeat_seconds as "heartbeatSeconds" from ${devices} d where d.id = any(${uuidArrayParam(deviceIds)})`,
  );

  return new Map(rows.map((r) => [r.id, r.heartbeatSeconds]));
}

/**
 * Connected devices are seen now: ONLINE (a transition sets lastDeviceStatusChange and is recorded),
 * `lastSeen` now, `lastActivity` at most once a minute. Two statements for any number of devices.
 */
export async function markConnectedDevicesSeen(db: Executor, deviceIds: readonly string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const ids = uuidArrayParam(deviceIds);
  const changed = await execRows<{ id: string }>(
    db,
    sql`with online as (
        update ${devices} set ${sql.identifier('device_status')} = 'ONLINE', ${sql.identifier('last_device_status_change')} = now()
        where ${devices.id} = any(${ids}) and ${devices.deviceStatus} <> 'ONLINE'
        returning ${devices.id} as id, ${devices.customerId} as customer_id
      ), recorded as (
        insert into ${deviceStatusChanges} (${sql.identifier('device_id')}, ${sql.identifier('customer_id')}, ${sql.identifier('status')})
        select id, customer_id, 'ONLINE' from online
      )
      select id from online`,
  );
  await db
    .update(devices)
    .set({
      lastSeen: sql`now()`,
      everConnected: true,
      lastActivity: sql`case when ${activityDue} then now() else ${devices.lastActivity} end`,
    })
    .where(sql`${devices.id} = any(${ids})`);

  return changed.map((r) => r.id);
}

/** The pending commands (unacknowledged, unexpired) of several devices, oldest first per device. */
export async function findPendingCommandsOf(db: Executor, deviceIds: readonly string[], perDevice: number) {
  if (deviceIds.length === 0) return [];
  const rows = await execRows<{
    id: string;
    device_id: string;
    name: string;
    params: Record<string, unknown>;
    issued_at: string | Date;
    expires_at: string | Date;
  }>(
    db,
    sql`select c.id, c.device_id, c.name, c.params, c.issued_at, c.expires_at
      from unnest(${uuidArrayParam(deviceIds)}) as d(id)
      cross join lateral (
        select * from ${deviceCommands} c
        where c.device_id = d.id and c.acknowledged_at is null and c.expires_at > now()
        order by c.issued_at, c.id limit ${perDevice}
      ) c`,
  );

  return rows.map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    name: r.name,
    params: r.params,
    issuedAt: new Date(r.issued_at),
    expiresAt: new Date(r.expires_at),
  }));
}

/**
 * What a connected device reports in a heartbeat frame, written only when it differs from what is stored
 * (a device repeats the same facts every beat): one statement that changes nothing most of the time.
 */
export async function storeReportedFacts(
  db: Executor,
  deviceId: string,
  reported: { localIpAddress?: string; version?: string; firmwareVersion?: string; deviceInfo?: unknown },
): Promise<void> {
  const given = Object.entries(reported).filter(([, value]) => value !== undefined) as Array<[keyof typeof reported, unknown]>;
  if (given.length === 0) return;
  const column = {
    localIpAddress: devices.localIpAddress,
    version: devices.version,
    firmwareVersion: devices.firmwareVersion,
    deviceInfo: devices.deviceInfo,
  };
  const value = (key: keyof typeof reported, v: unknown) => (key === 'deviceInfo' ? sql`${JSON.stringify(v)}::jsonb` : sql`${v as string}`);
  // Prepared: one text per set of facts given (at most sixteen), sent by every connected screen once a minute.
  await execRows(
    db,
    sql`update ${devices} set ${sql.join(
      given.map(([key, v]) => sql`${sql.identifier(column[key].name)} = ${value(key, v)}`),
      sql`, `,
    )} where ${devices.id} = ${deviceId} and (${sql.join(
      given.map(([key, v]) => sql`${column[key]} is distinct from ${value(key, v)}`),
      sql` or `,
    )})`,
    { prepared: true },
  );
}

/** `deliveredAt`: when this instance sent the command (`DeliveryMarks`), the delivery the ack records if none is yet. */
export type SocketAck = { deviceId: string; commandId: string; ok: boolean; result: unknown; error: string | null; deliveredAt?: Date };

/**
 * Records many acknowledgements in one statement (the first one of each command is kept, as over HTTP, and the
 * delivery too when no mark recorded it yet: at the time it was sent, else now); answers the ids it recorded now. With `recorded`, one more statement
 * answers which of the others exist for their device (a repeated ack: fine; none: the device acknowledged something
 * it never had). Each row is found by primary key, a probe per ack (a lateral subquery the planner cannot turn into a
 * join): as a join, a batch just issued was met with stale statistics (a table never analysed, or a pending-commands
 * index that looked empty) and read the whole table or every pending command, once per 500 acks. The rows are locked
 * in id order, as `markCommandsDelivered` locks them, so the two never deadlock (an ack batch meeting a delivery mark
 * did, in the cluster benchmark, and its acks were lost).
 */
export async function acknowledgeCommands(db: Executor, acks: readonly SocketAck[]): Promise<Set<string>> {
  if (acks.length === 0) return new Set();
  const rows = await execRows<{ id: string }>(
    db,
    sql`with a as materialized (
        select * from jsonb_to_recordset(${JSON.stringify(acks.map((a) => ({ id: a.commandId, device_id: a.deviceId, ok: a.ok, result: a.result ?? null, error: a.error, delivered_at: a.deliveredAt?.toISOString() ?? null })))}::jsonb)
          as a(id uuid, device_id uuid, ok boolean, result jsonb, error text, delivered_at timestamptz)
        order by id
      ), locked as materialized (
        select c.id, c.acknowledged_at, a.ok, a.result, a.error, a.delivered_at from a cross join lateral (
          select c.id, c.acknowledged_at from ${deviceCommands} c where c.id = a.id and c.device_id = a.device_id for update
        ) c
      )
      update ${deviceCommands} as c set ${sql.identifier('acknowledged_at')} = now(), ${sql.identifier('delivered_at')} = coalesce(c.delivered_at, least(locked.delivered_at, now())), ${sql.identifier('ok')} = locked.ok, ${sql.identifier('result')} = locked.result, ${sql.identifier('error')} = locked.error
      from locked
      where c.id = locked.id and locked.acknowledged_at is null
      returning c.id`,
  );

  return new Set(rows.map((r) => r.id));
}

/** Of `acks`, the commands that exist for the device that acknowledged them. */
export async function existingCommandsOf(db: Executor, acks: readonly SocketAck[]): Promise<Set<string>> {
  if (acks.length === 0) return new Set();
  const rows = await execRows<{ id: string }>(
    db,
    sql`select c.id from jsonb_to_recordset(${JSON.stringify(acks.map((a) => ({ id: a.commandId, device_id: a.deviceId })))}::jsonb) as a(id uuid, device_id uuid)
      cross join lateral (select c.id from ${deviceCommands} c where c.id = a.id and c.device_id = a.device_id limit 1) c`,
  );

  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------------------------------------------
// The customer's session limit (`deviceSessionLimit`, issue 33): one `device_session` row per open connection.

export type SessionAdmission = { admitted: true } | { admitted: false; limit: number };

/**
 * Counts the connection in, or refuses it: with a `deviceSessionLimit` above 0, the customer's other devices
 * connected now (`connectedDeviceCountSql`, the device itself not counted, so a device reconnecting past its own
 * half-open connection gets in) must be below it. The customer row is locked first (`for no key update`: admissions
 * of one customer queue, nothing else waits on them), and the count is a second statement, so it sees every
 * admission committed while this one waited (each statement reads afresh under read committed). An unassigned
 * device is counted for no customer and never refused.
 */
export async function admitSession(
  db: Database,
  session: { id: string; deviceId: string; customerId: number | null; instanceId: string; leaseSeconds: number },
): Promise<SessionAdmission> {
  const row = {
    id: session.id,
    deviceId: session.deviceId,
    customerId: session.customerId,
    instanceId: session.instanceId,
    leaseUntil: sql`now() + make_interval(secs => ${session.leaseSeconds})`,
  };
  const customerId = session.customerId;
  // Without a limit nothing is counted and no lock is taken: a fleet reconnecting at once (an instance gone) does not
  // queue on its customer's row. One prepared statement: the row is written unless the customer has a limit. A limit
  // set meanwhile applies from the next connect.
  const unlimited = await execRows<{ id: string }>(
    db,
    sql`insert into ${deviceSessions} (id, device_id, customer_id, instance_id, lease_until)
      select ${session.id}::uuid, ${session.deviceId}::uuid, ${customerId}::bigint, ${session.instanceId}::uuid, now() + make_interval(secs => ${session.leaseSeconds})
      where not exists (select 1 from ${customers} c where c.id = ${customerId}::bigint and c.device_session_limit > 0)
      returning id`,
    { prepared: true },
  );
  if (unlimited.length > 0 || customerId === null) return { admitted: true };

  return withTransaction(db, async (tx) => {
    const [customer] = await tx
      .select({ limit: customers.deviceSessionLimit })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('no key update');
    // A customer deleted meanwhile: the device is gone with it, the ping round closes the socket.
    const limit = customer?.limit ?? 0;
    if (limit > 0) {
      const [counted] = await execRows<{ n: number }>(
        tx,
        sql`select ${connectedDeviceCountSql(sql`${customerId}::bigint`, sql`${session.deviceId}::uuid`)} as n`,
      );
      if (Number(counted?.n ?? 0) >= limit) return { admitted: false, limit };
    }
    await tx.insert(deviceSessions).values(row);

    return { admitted: true };
  });
}

/**
 * The instance's connections are still open: their leases run `leaseSeconds` from now, and each follows its
 * device's customer (a claim while connected). A row that is gone (its lease ran out while the instance stalled)
 * is written again. One statement for any number of connections.
 */
export async function renewSessions(
  db: Executor,
  input: { instanceId: string; sessions: ReadonlyArray<{ id: string; deviceId: string }>; leaseSeconds: number },
): Promise<void> {
  if (input.sessions.length === 0) return;
  await db.execute(sql`insert into ${deviceSessions} (id, device_id, customer_id, instance_id, lease_until)
    select s.id, s.device_id, d.customer_id, ${input.instanceId}::uuid, now() + make_interval(secs => ${input.leaseSeconds})
    from unnest(${uuidArrayParam(input.sessions.map((s) => s.id))}, ${uuidArrayParam(input.sessions.map((s) => s.deviceId))}) as s(id, device_id)
    join ${devices} d on d.id = s.device_id
    on conflict (id) do update set lease_until = excluded.lease_until, customer_id = excluded.customer_id`);
}

/** Connections that closed (one statement). */
export async function endSessions(db: Executor, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.delete(deviceSessions).where(sql`${deviceSessions.id} = any(${uuidArrayParam(sessionIds)})`);
}

/** Every connection of a stopping instance, and the leases that ran out long ago (a crashed instance's). */
export async function endInstanceSessions(db: Executor, instanceId: string): Promise<void> {
  await db
    .delete(deviceSessions)
    .where(or(eq(deviceSessions.instanceId, instanceId), lt(deviceSessions.leaseUntil, sql`now() - interval '1 hour'`)));
}

/** Rows whose lease ran out an hour ago: their instance is gone (the ping round's housekeeping). */
export async function deleteExpiredSessions(db: Executor): Promise<void> {
  await db.delete(deviceSessions).where(lt(deviceSessions.leaseUntil, sql`now() - interval '1 hour'`));
}

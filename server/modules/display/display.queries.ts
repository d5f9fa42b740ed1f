import { and, asc, desc, eq, gt, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { DeviceCallerRecord } from '@/server/auth/device-token';
import type { Database, Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { execRows } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { deviceAccessTokens, deviceCommands, devices, deviceStatusChanges, type DeviceRow } from '@/server/modules/devices/devices.table';

export type { DeviceRow };
export { findRootDeviceGroup } from '@/server/modules/folders';
export { insertDevice } from '@/server/modules/devices';
type DeviceInsert = typeof devices.$inferInsert;

/** `lastActivity` is written at most once a minute per device (spec 4 §3). */
const ACTIVITY_INTERVAL_SECONDS = 60;
export const activityDue = sql<boolean>`(${devices.lastActivity} is null or ${devices.lastActivity} < now() - make_interval(secs => ${ACTIVITY_INTERVAL_SECONDS}))`;

// --- registration and activation codes -----------------------------------------------------------

export async function findDevice(db: Executor, id: string): Promise<DeviceRow | undefined> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id)).limit(1);

  return row;
}

/**
 * The pre-registered device (assigned by serial, never connected) a registration with `serial` takes over,
 * locked; a concurrent registration with the same serial skips it (and registers a new device).
 */
export async function lockPreRegisteredBySerial(db: Executor, serial: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.serial, serial), isNotNull(devices.customerId), eq(devices.everConnected, false)))
    .orderBy(asc(devices.createdDate), asc(devices.id))
    .limit(1)
    .for('update', { skipLocked: true });

  return row;
}

export async function updateDevice(db: Executor, id: string, values: Partial<DeviceInsert>): Promise<DeviceRow> {
  const [row] = await db.update(devices).set(values).where(eq(devices.id, id)).returning();

  return row!;
}

/**
 * Gives the unassigned device `code` for 15 minutes, first clearing an expired holder of the same code.
 * `taken` when an unexpired holder has it (the unique index refuses it; a savepoint keeps the transaction
 * usable); `notUnassigned` when the device has been claimed meanwhile.
 */
export async function trySetActivationCode(
  db: Executor,
  deviceId: string,
  code: string,
  lifetimeSeconds: number,
): Promise<{ code: string; expiresAt: Date } | 'taken' | 'notUnassigned'> {
  try {
    return await db.transaction(async (sp) => {
      await sp
        .update(devices)
        .set({ activationCode: null, activationCodeExpiresAt: null })
        .where(and(eq(devices.activationCode, code), lte(devices.activationCodeExpiresAt, sql`now()`)));
      const [row] = await sp
        .update(devices)
        .set({ activationCode: code, activationCodeExpiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` })
        .where(and(eq(devices.id, deviceId), isNull(devices.customerId)))
        .returning({ expiresAt: devices.activationCodeExpiresAt });

      return row?.expiresAt ? { code, expiresAt: row.expiresAt } : 'notUnassigned';
    });
  } catch (err) {
    if (isUniqueViolation(err, 'device_activation_code_idx')) return 'taken';
    throw err;
  }
}

/** The codes unexpired now (at most 10 000 rows: the whole code space). */
export async function findCodesInUse(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ code: devices.activationCode })
    .from(devices)
    .where(and(isNotNull(devices.activationCode), gt(devices.activationCodeExpiresAt, sql`now()`)));

  return rows.map((r) => r.code!);
}

// --- credentials ---------------------------------------------------------------------------------

export async function findDeviceCredentials(db: Executor, deviceId: string) {
  const [row] = await db
    .select({
      id: devices.id,
      secretHash: devices.secretHash,
      previousSecretHash: devices.previousSecretHash,
      previousSecretLive: sql<boolean>`coalesce(${devices.previousSecretExpiresAt} > now(), false)`,
      customerRestricted: sql<boolean>`coalesce(${customers.restricted}, false)`,
    })
    .from(devices)
    .leftJoin(customers, eq(customers.id, devices.customerId))
    .where(eq(devices.id, deviceId))
    .limit(1);

  return row;
}

/** The new secret was used: the previous one stops working (spec 4 §2). */
export async function retirePreviousSecret(db: Executor, deviceId: string, currentHash: string): Promise<void> {
  await db
    .update(devices)
    .set({ previousSecretHash: null, previousSecretExpiresAt: null })
    .where(and(eq(devices.id, deviceId), eq(devices.secretHash, currentHash), isNotNull(devices.previousSecretHash)));
}

/** The current secret becomes the previous one for at most `graceSeconds`. */
export async function rotateSecret(db: Executor, deviceId: string, newHash: string, graceSeconds: number): Promise<void> {
  await db
    .update(devices)
    .set({
      previousSecretHash: sql`${devices.secretHash}`,
      previousSecretExpiresAt: sql`now() + make_interval(secs => ${graceSeconds})`,
      secretHash: newHash,
    })
    .where(eq(devices.id, deviceId));
}

export async function insertDeviceAccessToken(
  db: Executor,
  values: { tokenHash: string; deviceId: string; lifetimeSeconds: number },
): Promise<void> {
  await db.insert(deviceAccessTokens).values({
    tokenHash: values.tokenHash,
    deviceId: values.deviceId,
    expiresAt: sql`now() + make_interval(secs => ${values.lifetimeSeconds})`,
  });
}

export async function deleteExpiredDeviceTokens(db: Executor): Promise<number> {
  const rows = await db
    .delete(deviceAccessTokens)
    .where(lt(deviceAccessTokens.expiresAt, sql`now()`))
    .returning({ tokenHash: deviceAccessTokens.tokenHash });

  return rows.length;
}

/** The token look-up runs on every device call: a prepared statement per database object, as the users' one. */
function prepareLookup(db: Database) {
  return db
    .select({
      deviceId: devices.id,
      deviceName: devices.name,
      customerId: devices.customerId,
      customerName: customers.name,
      customerRestricted: sql<boolean>`coalesce(${customers.restricted}, false)`,
      activityDue,
    })
    .from(deviceAccessTokens)
    .innerJoin(devices, eq(devices.id, deviceAccessTokens.deviceId))
    .leftJoin(customers, eq(customers.id, devices.customerId))
    .where(and(eq(deviceAccessTokens.tokenHash, sql.placeholder('hash')), gt(deviceAccessTokens.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('display_device_token_by_hash');
}

const preparedFor = new WeakMap<Database, ReturnType<typeof prepareLookup>>();

export async function findDeviceCallerByTokenHash(db: Database, tokenHash: string): Promise<DeviceCallerRecord | undefined> {
  let statement = preparedFor.get(db);
  if (!statement) {
    statement = prepareLookup(db);
    preparedFor.set(db, statement);
  }

  return (await statement.execute({ hash: tokenHash }))[0];
}

export async function recordDeviceActivity(db: Database, deviceId: string): Promise<void> {
  // Prepared: a device's first call of the minute (every reconnecting screen's ticket, at once after a failover).
  await execRows(
    db,
    sql`update ${devices} set ${sql.identifier('last_activity')} = now() where ${devices.id} = ${deviceId} and ${activityDue}`,
    {
      prepared: true,
    },
  );
}

// --- heartbeat, status and commands ---------------------------------------------------------------

export async function recordHeartbeat(
  db: Executor,
  deviceId: string,
  reported: Pick<DeviceInsert, 'localIpAddress' | 'version' | 'firmwareVersion' | 'deviceInfo'>,
): Promise<DeviceRow | undefined> {
  const given = Object.fromEntries(Object.entries(reported).filter(([, value]) => value !== undefined));
  const [row] = await db
    .update(devices)
    .set({ ...given, lastSeen: sql`now()`, everConnected: true })
    .where(eq(devices.id, deviceId))
    .returning();

  return row;
}

/** Sets the status when it differs; answers the device's customer when it changed, undefined when not (or no device). */
export async function setDeviceStatus(
  db: Executor,
  deviceId: string,
  status: DeviceRow['deviceStatus'],
): Promise<{ customerId: number | null } | undefined> {
  const [row] = await db
    .update(devices)
    .set({ deviceStatus: status, lastDeviceStatusChange: sql`now()` })
    .where(and(eq(devices.id, deviceId), sql`${devices.deviceStatus} <> ${status}`))
    .returning({ customerId: devices.customerId });

  return row;
}

export async function insertStatusChange(
  db: Executor,
  values: { deviceId: string; customerId: number | null; status: DeviceRow['deviceStatus'] },
): Promise<void> {
  await db.insert(deviceStatusChanges).values(values);
}

export async function findPendingCommands(db: Executor, deviceId: string, limit: number) {
  return db
    .select({
      id: deviceCommands.id,
      name: deviceCommands.name,
      params: deviceCommands.params,
      issuedAt: deviceCommands.issuedAt,
      expiresAt: deviceCommands.expiresAt,
    })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), isNull(deviceCommands.acknowledgedAt), gt(deviceCommands.expiresAt, sql`now()`)))
    .orderBy(asc(deviceCommands.issuedAt), asc(deviceCommands.id))
    .limit(limit);
}

/** Deliveries one statement marks: one mark of thousands held a batch's acks up behind its row locks. */
const MARK_SLICE = 500;

/**
 * Records the first delivery of the commands (the console shows it), each at its `at` (when it was sent; now when
 * absent); later deliveries keep the first time. Rows an acknowledgement holds are skipped, not waited for (`skip
 * locked`): the acknowledgement records the delivery itself, and a mark never queues behind the acks of the screens
 * that already answered. MARK_SLICE commands a statement, each found by primary key (a lateral probe, whatever the
 * statistics say) and locked in id order, as acknowledgements find and lock them (`acknowledgeCommands`).
 */
export async function markCommandsDelivered(db: Executor, marks: ReadonlyArray<{ id: string; at?: Date }>): Promise<void> {
  for (let from = 0; from < marks.length; from += MARK_SLICE) {
    const slice = marks.slice(from, from + MARK_SLICE).map((m) => ({ id: m.id, at: m.at?.toISOString() ?? null }));
    await db.execute(
      sql`with m as materialized (
          select * from jsonb_to_recordset(${JSON.stringify(slice)}::jsonb) as m(id uuid, at timestamptz) order by id
        ), locked as materialized (
          select c.id, m.at from m cross join lateral (
            select c.id from ${deviceCommands} c where c.id = m.id and c.delivered_at is null for update skip locked
          ) c
        )
        update ${deviceCommands} c set ${sql.identifier('delivered_at')} = least(locked.at, now()) from locked where c.id = locked.id`,
    );
  }
}

/** Records the acknowledgement once; false when the device has no such unacknowledged command. */
export async function acknowledgeCommand(
  db: Executor,
  deviceId: string,
  commandId: string,
  ack: { ok: boolean; result: unknown; error: string | null },
): Promise<boolean> {
  const rows = await db
    .update(deviceCommands)
    .set({
      acknowledgedAt: sql`now()`,
      deliveredAt: sql`coalesce(${deviceCommands.deliveredAt}, now())`,
      ok: ack.ok,
      result: ack.result ?? null,
      error: ack.error,
    })
    .where(and(eq(deviceCommands.id, commandId), eq(deviceCommands.deviceId, deviceId), isNull(deviceCommands.acknowledgedAt)))
    .returning({ id: deviceCommands.id });

  return rows.length === 1;
}

export async function commandOfDeviceExists(db: Executor, deviceId: string, commandId: string): Promise<boolean> {
  const rows = await db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.id, commandId), eq(deviceCommands.deviceId, deviceId)))
    .limit(1);

  return rows.length === 1;
}

export async function insertCommand(db: Executor, values: typeof deviceCommands.$inferInsert) {
  const [row] = await db.insert(deviceCommands).values(values).returning();

  return row!;
}

// --- claims (assignToCustomer) ----------------------------------------------------------------------

/** The unassigned device showing `code` (unexpired), locked for the claim. */
export async function lockUnassignedByCode(db: Executor, code: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.activationCode, code), gt(devices.activationCodeExpiresAt, sql`now()`), isNull(devices.customerId)))
    .limit(1)
    .for('update');

  return row;
}

/** The newest unassigned device registered with `serial`, locked for the claim. */
export async function lockUnassignedBySerial(db: Executor, serial: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.serial, serial), isNull(devices.customerId)))
    .orderBy(desc(devices.createdDate), desc(devices.id))
    .limit(1)
    .for('update');

  return row;
}

/** Serialises pre-registrations of one serial (two racing claims must not both create a device). */
export async function lockSerial(db: Executor, serial: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`device-serial:${serial}`}, 0))`);
}

/** A device pre-registered with `serial` that no player has taken over yet, in any tenant. */
export async function preRegisteredSerialExists(db: Executor, serial: string): Promise<boolean> {
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.serial, serial), isNotNull(devices.customerId), eq(devices.everConnected, false)))
    .limit(1);

  return rows.length === 1;
}

export async function findCustomerName(db: Executor, customerId: number): Promise<string | undefined> {
  const [row] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId)).limit(1);

  return row?.name;
}

// --- folder schedules ------------------------------------------------------------------------------

/** The condition "in the device folder `folderId` or below it" (the GIN index on the materialised path). */
export const inDeviceGroup = (folderId: string): SQL => sql`${devices.groupPath} @> array[${folderId}]::uuid[]`;

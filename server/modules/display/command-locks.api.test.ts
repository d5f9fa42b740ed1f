import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { markCommandsDelivered } from './display.queries';
import { acknowledgeCommands } from './device-sessions.queries';
import { newDevice } from './display.test-kit';

/*
 * Acknowledgements and delivery marks over the same commands (an instance writes acks while the commands it just
 * sent are marked). Each locks the rows it changes; in different orders they deadlocked, PostgreSQL broke one off
 * and a whole ack batch was lost, and a mark of thousands held the acks up. Both lock in id order, a mark skips the
 * rows an ack holds, and an ack records the delivery itself. The concurrent cases run on PostgreSQL only: PGlite runs
 * one statement at a time.
 */
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** `count` commands for `deviceId`, in id order. */
async function issue(deviceId: string, customerId: number, count: number) {
  const rows = await execRows<{ id: string }>(
    t.db,
    sql`insert into device_command (id, device_id, customer_id, name, expires_at)
      select gen_random_uuid(), ${deviceId}, ${customerId}, 'refresh', now() + interval '1 hour' from generate_series(1, ${count})
      returning id`,
  );

  return rows.map((r) => r.id).sort();
}

async function commandTimes(ids: readonly string[]) {
  return execRows<{ id: string; delivered_at: Date | null; acknowledged_at: Date | null }>(
    t.db,
    sql`select id, delivered_at, acknowledged_at from device_command where id = any(${uuidArrayParam(ids)}) order by id`,
  );
}

describe('an acknowledgement', () => {
  it('records the delivery too when the command was never marked delivered', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    const ids = await issue(device.deviceId, customer.id, 3);
    const recorded = await acknowledgeCommands(
      t.db,
      ids.map((id) => ({ deviceId: device.deviceId, commandId: id, ok: true, result: null, error: null })),
    );
    expect(recorded.size).toBe(3);
    for (const row of await commandTimes(ids)) expect(row.delivered_at).toEqual(row.acknowledged_at);
  });
});

describe('the time of a delivery', () => {
  it('is when the instance sent the command, for an acknowledgement and for a mark; never later than now', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    const [acked, marked, ahead] = await issue(device.deviceId, customer.id, 3);
    const sentAt = new Date(Date.now() - 5_000);
    const ack = (commandId: string, deliveredAt: Date) => ({
      deviceId: device.deviceId,
      commandId,
      ok: true,
      result: null,
      error: null,
      deliveredAt,
    });
    await acknowledgeCommands(t.db, [ack(acked!, sentAt), ack(ahead!, new Date(Date.now() + 3_600_000))]);
    await markCommandsDelivered(t.db, [{ id: marked!, at: sentAt }]);
    // PGlite answers timestamps as text in raw rows, node-postgres as dates.
    const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());
    const rows = new Map(
      (await commandTimes([acked!, marked!, ahead!])).map((r) => [r.id, { delivered: ms(r.delivered_at), acked: ms(r.acknowledged_at) }]),
    );
    expect(rows.get(acked!)!.delivered).toBe(sentAt.getTime());
    expect(rows.get(marked!)!).toEqual({ delivered: sentAt.getTime(), acked: null });
    // An instance's clock ahead of the database's: the delivery is not after the acknowledgement.
    expect(rows.get(ahead!)!.delivered).toBe(rows.get(ahead!)!.acked);
  });
});

describe.runIf(process.env.DATABASE_URL)('a delivery mark meeting acknowledgements in progress', () => {
  it('does not wait for them: it skips the rows they hold, and they record the delivery themselves', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    const ids = await issue(device.deviceId, customer.id, 10);
    const held = ids.filter((_, i) => i % 2 === 0);
    await t.db.transaction(async (tx) => {
      // The acknowledgements hold their rows until this transaction ends.
      await acknowledgeCommands(
        tx,
        held.map((id) => ({ deviceId: device.deviceId, commandId: id, ok: true, result: null, error: null })),
      );
      // On another connection: answers while the rows are held (waiting for them would never end here).
      const marked = markCommandsDelivered(
        t.db,
        ids.map((id) => ({ id })),
      ).then(() => 'marked');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited'), 10_000));
      expect(await Promise.race([marked, waited])).toBe('marked');
      const rows = await commandTimes(ids);
      expect(rows.filter((r) => r.delivered_at !== null).map((r) => r.id)).toEqual(ids.filter((id) => !held.includes(id)));
    });
    expect((await commandTimes(ids)).every((r) => r.delivered_at !== null)).toBe(true);
  }, 20_000);
});

describe.runIf(process.env.DATABASE_URL)('acknowledging and marking the same commands at once', () => {
  it('never deadlocks: both statements finish, every ack is recorded and every command marked', async () => {
    const customer = await t.factories.customer();
    const devices = await Promise.all(Array.from({ length: 20 }, () => newDevice(t, { customerId: customer.id })));
    for (let round = 0; round < 6; round++) {
      // 100 commands per device, issued in one statement (random ids: the table's order is not the ids').
      const rows = await execRows<{ id: string; device_id: string }>(
        t.db,
        sql`insert into device_command (id, device_id, customer_id, name, expires_at)
          select gen_random_uuid(), d.id, ${customer.id}, 'refresh', now() + interval '1 hour'
          from unnest(${uuidArrayParam(devices.map((d) => d.deviceId))}) as d(id), generate_series(1, 100)
          returning id, device_id`,
      );
      const commands = rows.map((r) => ({ id: r.id, deviceId: r.device_id })).sort((a, b) => (a.id < b.id ? -1 : 1));
      // The acks name the commands in the opposite order to the mark's.
      const acks = commands.map((c) => ({ deviceId: c.deviceId, commandId: c.id, ok: true, result: null, error: null })).reverse();

      const [recorded] = await Promise.all([
        acknowledgeCommands(t.db, acks),
        markCommandsDelivered(
          t.db,
          commands.map((c) => ({ id: c.id })),
        ),
      ]);

      expect(recorded.size).toBe(commands.length);
      const left = await execRows<{ unacked: number; unmarked: number }>(
        t.db,
        sql`select count(*) filter (where acknowledged_at is null)::int as unacked, count(*) filter (where delivered_at is null)::int as unmarked
          from device_command where id = any(${uuidArrayParam(commands.map((c) => c.id))})`,
      );
      expect(left[0]).toEqual({ unacked: 0, unmarked: 0 });
    }
  });
});

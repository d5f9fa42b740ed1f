import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { markCommandsDelivered } from './display.queries';
import { acknowledgeCommands } from './device-sessions.queries';
import { newDevice } from './display.test-kit';

/*
 * A batch of acknowledgements and a delivery mark over the same commands, at the same time on two connections (an
 * instance writes the one while a reconnecting screen's commands are marked). Each locks the rows it changes; in
 * different orders they deadlocked, PostgreSQL broke one off and a whole ack batch was lost. Both lock in id order.
 * PostgreSQL only: PGlite runs one statement at a time.
 */
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

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
          commands.map((c) => c.id),
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
